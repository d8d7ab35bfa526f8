import { reviewMessages } from '@learnlingo/contract/plain';
import styles from './reviews.module.css';

/** "12 November 2026", in UTC (a review shows its lesson's day; the page is the same for everyone). */
export const reviewDate = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

export interface ReviewViewProps {
  name: string;
  rating: number;
  comment: string;
  /** a lesson's review: its date and language; null: imported */
  lesson: { date: string; language: string | null } | null;
  reply: string | null;
  /** whom the reply is from (the teacher's name) */
  replyFrom?: string | undefined;
  hidden?: { reason: string } | null | undefined;
  headingLevel?: 'h3' | 'h4';
}

/** One review: name, rating, date and language, its mark, the comment (plain text), the teacher's answer. */
export function ReviewView({ name, rating, comment, lesson, reply, replyFrom, hidden, headingLevel: Heading = 'h3' }: ReviewViewProps) {
  return (
    <article className={styles.review}>
      <div className={styles.head}>
        <Heading className={styles.name}>{name}</Heading>
        <span className={styles.rating}>
          <span className={styles.star} aria-hidden="true">
            ★
          </span>
          <span className="visually-hidden">Rating: </span>
          {rating}
        </span>
        {lesson ? (
          <>
            <span className={styles.meta}>
              {reviewDate(lesson.date)}
              {lesson.language ? ` · ${lesson.language}` : ''}
            </span>
            <span className={styles.mark}>{reviewMessages.lessonMark}</span>
          </>
        ) : (
          <span className={`${styles.mark} ${styles.markImported}`}>{reviewMessages.importedMark}</span>
        )}
      </div>
      {hidden ? (
        <p className={styles.hidden}>
          {reviewMessages.hiddenBySchool}: {hidden.reason}
        </p>
      ) : null}
      {comment ? <p className={styles.comment}>{comment}</p> : null}
      {reply ? (
        <p className={styles.reply}>
          <span className={styles.replyLabel}>{replyFrom ? `Answer from ${replyFrom}` : 'Answer from the teacher'}</span>
          {reply}
        </p>
      ) : null}
    </article>
  );
}
