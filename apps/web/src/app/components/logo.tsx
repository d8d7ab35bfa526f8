import { Link } from 'react-router';
import styles from './header.module.css';

/** Logo mark (drawn by the CSS) + product name; links home. */
export function Logo() {
  return (
    <Link to="/" className={styles.logo}>
      <span>LearnLingo</span>
    </Link>
  );
}
