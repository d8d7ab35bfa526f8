import styles from './spinner.module.css';

export interface SpinnerProps {
  /** diameter in px */
  size?: number;
  /** what screen readers hear */
  label?: string;
}

/** The gold loading spinner (size 80 for pages and session restore). */
export function Spinner({ size = 80, label = 'Loading' }: SpinnerProps) {
  return (
    <div role="status" className={styles.wrapper}>
      <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
