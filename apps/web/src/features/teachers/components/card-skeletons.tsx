import styles from './teachers-list.module.css';

/** Grey placeholders the size of collapsed cards, so nothing jumps when the teachers arrive. */
export function CardSkeletons({ count }: { count: number }) {
  return (
    <div className={styles.list} aria-busy="true">
      <p role="status" className="visually-hidden">
        Loading teachers
      </p>
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className={styles.skeleton} aria-hidden="true" data-testid="card-skeleton">
          <span className={styles.skeletonAvatar} />
          <span className={styles.skeletonLines}>
            <span />
            <span />
            <span />
            <span />
          </span>
        </div>
      ))}
    </div>
  );
}
