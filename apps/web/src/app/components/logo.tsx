import { Link } from 'react-router';
import styles from './header.module.css';

/** Logo mark + product name; links home. */
export function Logo() {
  return (
    <Link to="/" className={styles.logo}>
      <svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
        <clipPath id="logo-clip">
          <circle cx="14" cy="14" r="14" />
        </clipPath>
        <g clipPath="url(#logo-clip)">
          <rect width="28" height="14" fill="#0057b8" />
          <rect y="14" width="28" height="14" fill="#ffd700" />
        </g>
      </svg>
      <span>LearnLingo</span>
    </Link>
  );
}
