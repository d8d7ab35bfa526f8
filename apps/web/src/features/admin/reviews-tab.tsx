import { useState, type FormEvent } from 'react';
import { REVIEW_HIDE_REASON_MAX, reviewMessages } from '@learnlingo/contract/plain';
import type { LessonReview } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { errorFields, genericErrorMessage } from '../../lib/api-error';
import { showToast } from '../../lib/toast';
import { ReviewView, reviewsApi, useGetAdminReviewsQuery, useHideReviewMutation } from '../reviews';
import { consoleStyles, type ConsoleTabPage } from './console-layout-parts';
import { TextField } from '../../components/ui/text-field';
import styles from './reviews-tab.module.css';

/** /admin/reviews: the newest reviews of lessons, hidden ones with their reason; any other can be hidden with a reason (audited). */
function ReviewsTab() {
  const { data, isLoading, isError } = useGetAdminReviewsQuery(undefined, { refetchOnMountOrArgChange: true });
  return (
    <div>
      <h2 className={consoleStyles.panelTitle}>Reviews</h2>
      {isLoading ? (
        <Spinner label="Loading the reviews" />
      ) : isError || !data ? (
        <p className={consoleStyles.muted}>Could not load the reviews.</p>
      ) : data.items.length === 0 ? (
        <p className={consoleStyles.muted}>No reviews of lessons yet.</p>
      ) : (
        <ul className={styles.list}>
          {data.items.map((review) => (
            <li key={review.id} className={styles.item}>
              <p className={styles.about}>About {review.teacherName}</p>
              <ReviewView
                name={review.reviewerName}
                rating={review.rating}
                comment={review.comment}
                lesson={{ date: review.lessonStart, language: review.language }}
                reply={review.reply}
                replyFrom={review.teacherName}
                hidden={review.hidden}
              />
              {review.hidden ? null : <HideForm review={review} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function HideForm({ review }: { review: LessonReview }) {
  const [hide, { isLoading }] = useHideReviewMutation();
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    if (!reason) return setError(reviewMessages.reasonRequired);
    setError(null);
    const result = await hide({ id: review.id, teacherId: review.teacherId, reason });
    if (result.error) {
      const fields = errorFields(result.error);
      if (fields.reason) setError(fields.reason);
      else void showToast('error', genericErrorMessage(result.error));
      return;
    }
    void showToast('success', 'The review is hidden.');
  };
  return (
    <form className={styles.hideForm} onSubmit={(event) => void submit(event)} noValidate>
      <TextField className={styles.reason} label="Reason for hiding" name="reason" maxLength={REVIEW_HIDE_REASON_MAX} error={error ?? undefined} />
      <Button type="submit" variant="secondary" disabled={isLoading} aria-busy={isLoading || undefined}>
        Hide review
      </Button>
    </form>
  );
}

export const reviewsTab: ConsoleTabPage = {
  Component: ReviewsTab,
  prefetch: async ({ dispatch }) => {
    await dispatch(reviewsApi.endpoints.getAdminReviews.initiate());
    return undefined;
  },
};
