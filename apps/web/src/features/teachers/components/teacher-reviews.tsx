import type { Review } from '@learnlingo/contract';
import { Avatar } from '../../../components/ui/avatar';
import { formatRating } from '../lib/format';
import { StarIcon } from './icons';
import styles from './teacher-card.module.css';

/** "12 November 2026" (UTC: the lesson's day, the same for every reader and the server's HTML). */
const lessonDay = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

/**
 * The reviews under "Read more": reviewer, rating and comment. A review of a lesson taken here
 * (decision 112) also says when, in which language, "Lesson taken on LearnLingo", and the
 * teacher's answer; an imported one says so.
 */
export function TeacherReviews({ reviews }: { reviews: readonly Review[] }) {
  if (reviews.length === 0) return <p className={styles.noReviews}>No reviews yet.</p>;
  return (
    <ul className={styles.reviews} aria-label="Reviews">
      {reviews.map((review, index) => (
        <li key={`${review.reviewer_name}-${index}`} className={styles.review}>
          <div className={styles.reviewer}>
            <Avatar src={null} name={review.reviewer_name} size={44} />
            <div>
              <p className={styles.reviewerName}>{review.reviewer_name}</p>
              <p className={styles.reviewRating}>
                <StarIcon />
                <span className="visually-hidden">Rating: </span>
                {formatRating(review.reviewer_rating)}
              </p>
            </div>
          </div>
          <p className={styles.reviewMark}>
            {review.lesson
              ? `${review.date ? `${lessonDay(review.date)} · ` : ''}${review.language ? `${review.language} · ` : ''}Lesson taken on LearnLingo`
              : 'Imported review'}
          </p>
          <p className={styles.comment}>{review.comment}</p>
          {review.reply ? (
            <p className={styles.reviewReply}>
              <span className={styles.reviewReplyLabel}>Answer from the teacher</span>
              {review.reply}
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
