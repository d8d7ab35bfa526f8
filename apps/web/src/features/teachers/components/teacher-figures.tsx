import type { Teacher } from '@learnlingo/contract';
import { formatPrice, formatRating } from '../lib/format';
import { BookOpenIcon, StarIcon } from './icons';
import styles from './teacher-card.module.css';

/** "Lessons online | Lessons done: N | Rating: 4.8 | Price / 1 hour: 30$" */
export function TeacherFigures({ teacher }: { teacher: Teacher }) {
  return (
    <ul className={styles.figures} aria-label="Figures">
      <li className={styles.figure}>
        <BookOpenIcon />
        Lessons online
      </li>
      <li className={styles.figure}>Lessons done: {teacher.lessons_done}</li>
      <li className={styles.figure}>
        <StarIcon />
        Rating: {formatRating(teacher.rating)}
      </li>
      <li className={styles.figure}>
        Price / 1 hour: <span className={styles.price}>{formatPrice(teacher.price_per_hour)}</span>
      </li>
    </ul>
  );
}
