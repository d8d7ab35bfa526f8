import type { Review } from '@learnlingo/contract';
import { Avatar } from '../../../components/ui/avatar';
import { formatRating } from '../lib/format';
import { StarIcon } from './icons';
import styles from './teacher-card.module.css';

/** The reviews under "Read more": reviewer, rating and comment. */
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
          <p className={styles.comment}>{review.comment}</p>
        </li>
      ))}
    </ul>
  );
}
