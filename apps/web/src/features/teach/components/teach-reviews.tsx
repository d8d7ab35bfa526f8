import { useState, type FormEvent } from 'react';
import { REVIEW_REPLY_MAX, reviewMessages } from '@learnlingo/contract/plain';
import type { LessonReview } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { TextArea } from '../../../components/ui/text-area';
import { Spinner } from '../../../components/ui/spinner';
import { errorFields, genericErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { ReviewView, useGetTeachReviewsQuery, useReplyToReviewMutation } from '../../reviews';
import styles from './teach.module.css';

/** /teach/reviews: every review about the signed-in teacher, hidden ones with the school's reason, each with its one answer. */
export function TeachReviews() {
  const { data, isLoading, isError, refetch } = useGetTeachReviewsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (isLoading) return <Spinner label="Loading your reviews" />;
  if (isError || !data) {
    return (
      <EmptyState title="Could not load your reviews" action={<Button onClick={() => void refetch()}>Try again</Button>}>
        Check your connection and try again.
      </EmptyState>
    );
  }
  if (data.items.length === 0) {
    return <EmptyState title="No reviews yet">When a learner rates a lesson with you, the review shows here and you can answer it.</EmptyState>;
  }
  return (
    <ul className={styles.list} aria-label="Reviews about you">
      {data.items.map((review) => (
        <li key={review.id} id={`review-${review.id}`} className={styles.item}>
          <ReviewView
            name={review.reviewerName}
            rating={review.rating}
            comment={review.comment}
            lesson={{ date: review.lessonStart, language: review.language }}
            reply={review.reply}
            replyFrom="you"
            hidden={review.hidden}
          />
          {review.reply === null ? <ReplyForm review={review} /> : null}
        </li>
      ))}
    </ul>
  );
}

function ReplyForm({ review }: { review: LessonReview }) {
  const [reply, { isLoading }] = useReplyToReviewMutation();
  const [error, setError] = useState<string | null>(null);
  const fieldId = `reply-${review.id}`;
  // a real form: before the app runs it posts to the server (review-form-routes.ts), which
  // answers 303 back here with the status; once the app runs it answers in place (decision 105)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get('reply') ?? '').trim();
    if (!text) return setError(reviewMessages.replyRequired);
    if (text.length > REVIEW_REPLY_MAX) return setError(reviewMessages.replyTooLong);
    setError(null);
    const result = await reply({ id: review.id, teacherId: review.teacherId, reply: text });
    if (result.error) {
      const fields = errorFields(result.error);
      if (fields.reply) setError(fields.reply);
      else void showToast('error', genericErrorMessage(result.error));
      return;
    }
    void showToast('success', reviewMessages.replySaved);
  };

  return (
    <form
      className={styles.replyForm}
      method="post"
      action={`/teach/reviews/${encodeURIComponent(review.id)}/reply`}
      onSubmit={(event) => void submit(event)}
      noValidate
    >
      <TextArea id={fieldId} name="reply" label="Your answer (public, once)" maxLength={REVIEW_REPLY_MAX} error={error ?? undefined} />
      <div className={styles.actions}>
        <Button type="submit" disabled={isLoading} aria-busy={isLoading || undefined}>
          Publish answer
        </Button>
      </div>
    </form>
  );
}
