import { lessonTimeParts } from '../lib/lesson-time';
import styles from './booking.module.css';

/** `Tuesday 3 November 2026, 14:00–15:00` in `timeZone`, the hours kept on one line. */
export function LessonWhen({ start, end, timeZone }: { start: string; end: string | null; timeZone: string }) {
  const { day, hours } = lessonTimeParts(start, end, timeZone);
  return (
    <>
      {day}, <span className={styles.nowrap}>{hours}</span>
    </>
  );
}
