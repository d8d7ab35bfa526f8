import { Suspense } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Modal } from '../../components/ui/modal';
import { Spinner } from '../../components/ui/spinner';
import { loadLoginForm, loadRegisterForm } from '../../features/auth';
import { lazyChunk } from '../../lib/lazy-chunk';
import { closeModal, openModal, selectOpenModal, type GlobalModal } from '../../store';
import styles from './auth-modals.module.css';

const LoginForm = lazyChunk(loadLoginForm);
const RegisterForm = lazyChunk(loadRegisterForm);
// reached only from the Login modal, so not preloaded from the header like the other two
const ForgotPasswordForm = lazyChunk(() => import('../../features/auth/forgot-password'));

export { FORGOT_PASSWORD_TEXT, LOGIN_TEXT, REGISTER_TEXT } from '../../features/auth/auth-texts';
import { FORGOT_PASSWORD_TEXT, LOGIN_TEXT, REGISTER_TEXT } from '../../features/auth/auth-texts';

/** "Don't have an account? Registration" and the like: a line that opens another auth modal. */
function SwitchModal({ question, action, to }: { question: string; action: string; to: Exclude<GlobalModal, null> }) {
  const dispatch = useDispatch();
  return (
    <p className={styles.switch}>
      {question}
      <button type="button" className={styles.link} onClick={() => dispatch(openModal(to))}>
        {action}
      </button>
    </p>
  );
}

/**
 * The Login, Registration and Forgot password modals, opened from the header (or by any
 * feature through ui.modal); each leads to the others.
 */
export function AuthModals() {
  const dispatch = useDispatch();
  const modal = useSelector(selectOpenModal);
  const close = () => dispatch(closeModal());
  const loading = <Spinner size={48} label="Loading the form" />;

  return (
    <>
      <Modal open={modal === 'login'} onClose={close} title="Login" description={LOGIN_TEXT} maxHeight="calc(100dvh - 32px)">
        <Suspense fallback={loading}>
          <LoginForm onDone={close} />
          <SwitchModal question="Don’t have an account?" action="Registration" to="register" />
        </Suspense>
      </Modal>
      <Modal
        open={modal === 'register'}
        onClose={close}
        title="Registration"
        description={REGISTER_TEXT}
        maxHeight="calc(100dvh - 32px)"
      >
        <Suspense fallback={loading}>
          <RegisterForm onDone={close} />
          <SwitchModal question="Already have an account?" action="Log in" to="login" />
        </Suspense>
      </Modal>
      <Modal
        open={modal === 'forgot-password'}
        onClose={close}
        title="Forgot password"
        description={FORGOT_PASSWORD_TEXT}
        maxHeight="calc(100dvh - 32px)"
      >
        <Suspense fallback={loading}>
          <ForgotPasswordForm />
          <SwitchModal question="Remembered it?" action="Log in" to="login" />
        </Suspense>
      </Modal>
    </>
  );
}
