import { Link } from 'react-router';
import { selectContactEmail, useAppSelector } from '../../store';
import styles from './footer.module.css';

/** The product, the catalogue and, when the school has set one, its contact address. */
export function Footer() {
  const email = useAppSelector(selectContactEmail);
  return (
    <footer className={styles.footer}>
      <div className={`container ${styles.bar}`}>
        <p className={styles.product}>LearnLingo · online language teachers</p>
        <Link to="/teachers">Teacher catalogue</Link>
        {email ? <a href={`mailto:${email}`}>{email}</a> : null}
      </div>
    </footer>
  );
}
