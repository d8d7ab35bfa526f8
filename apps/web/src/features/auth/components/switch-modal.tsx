import { useDispatch } from 'react-redux';
import { openModal, type GlobalModal } from '../../../app/ui-slice';
import styles from './auth-form.module.css';

/** "Don't have an account? Registration" and the like: a line that opens another auth modal. */
export function SwitchModal({ question, action, to }: { question: string; action: string; to: Exclude<GlobalModal, null> }) {
  const dispatch = useDispatch();
  return (
    <p className={styles.switch}>
      {question}
      <button type="button" className={styles.textButton} onClick={() => dispatch(openModal(to))}>
        {action}
      </button>
    </p>
  );
}
