import { useState, type FormEvent, type MouseEvent } from 'react';
import { REVIEW_COMMENT_MAX, reviewMessages } from '@learnlingo/contract/plain';
import type { LessonReviewState } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { TextArea } from '../../../components/ui/text-area';
import { errorFields, genericErrorMessage } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useReportTeacherAbsentMutation, useSubmitReviewMutation, type LessonRef } from '../api/reviews-api';
import { ReviewView } from './review-view';
import styles from './reviews.module.css';

const RATINGS = [1, 2, 3, 4, 5] as const;

export interface LessonReviewBoxProps {
  state: LessonReviewState;
  lesson: LessonRef;
  teacherId: string;
  teacherName: string;
}

/**
 * Under a past lesson (My lessons, the private link): the rating form (1–5 and an optional
 * comment), the review once written (editable for 14 days), the school's hiding and why,
 * the teacher's answer, and "The teacher did not come" within 48 hours.
 */
export function LessonReviewBox({ state, lesson, teacherId, teacherName }: LessonReviewBoxProps) {
  const [editing, setEditing] = useState(false);
  if (state.state === 'upcoming' || state.state === 'not-reviewable') return null;
  if (state.state === 'no-show') {
    return (
      <section id={`review-${state.bookingId}`} className={styles.box} aria-label="Your review">
        <p className={styles.hint}>
          {state.teacherAbsent
            ? 'You told us the teacher did not come. The school has been told; this lesson is not rated.'
            : 'The teacher marked that you did not come, so this lesson is not rated.'}
        </p>
      </section>
    );
  }
  const review = state.review;
  if (review && !editing) {
    return (
      <section id={`review-${state.bookingId}`} className={styles.box} aria-label="Your review">
        <h4 className={styles.boxTitle}>Your review</h4>
        <ReviewView
          name={review.reviewerName}
          rating={review.rating}
          comment={review.comment}
          lesson={{ date: review.lessonStart, language: review.language }}
          reply={review.reply}
          replyFrom={teacherName}
          hidden={review.hidden}
          headingLevel="h4"
        />
        {state.editable ? (
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Change review
            </Button>
            <span className={styles.hint}>You can change it until {new Date(review.editableUntil).toLocaleDateString('en-GB', { day: 'numeric', month: 'long' })}.</span>
          </div>
        ) : null}
      </section>
    );
  }
  return (
    <ReviewForm
      state={state}
      lesson={lesson}
      teacherId={teacherId}
      teacherName={teacherName}
      onDone={() => setEditing(false)}
    />
  );
}

function ReviewForm({ state, lesson, teacherId, teacherName, onDone }: LessonReviewBoxProps & { onDone: () => void }) {
  const [submitReview, { isLoading }] = useSubmitReviewMutation();
  const [reportAbsent, { isLoading: reporting }] = useReportTeacherAbsentMutation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = state.bookingId;
  // a real form: before the app runs (or without it) it posts to the server's form route
  // (review-form-routes.ts), which answers 303 back here with the status; once the app runs
  // it sends the same through the API in place (decision 105)
  const base = lesson.token !== undefined ? `/bookings/${encodeURIComponent(lesson.token)}` : `/lessons/${encodeURIComponent(id)}`;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const rating = Number(data.get('rating'));
    const comment = String(data.get('comment') ?? '');
    if (!Number.isInteger(rating) || rating < 1 || rating > 5) {
      setErrors({ rating: reviewMessages.ratingRequired });
      return;
    }
    if (comment.trim().length > REVIEW_COMMENT_MAX) {
      setErrors({ comment: reviewMessages.commentTooLong });
      return;
    }
    setErrors({});
    const result = await submitReview({ ...lesson, teacherId, rating, comment });
    if (result.error) {
      const fields = errorFields(result.error);
      if (Object.keys(fields).length > 0) setErrors(fields);
      else void showToast('error', genericErrorMessage(result.error));
      return;
    }
    void showToast('success', reviewMessages.saved);
    onDone();
  };

  const report = async (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    const result = await reportAbsent({ ...lesson, teacherId });
    if (result.error) void showToast('error', genericErrorMessage(result.error));
  };

  return (
    <section id={`review-${id}`} className={styles.box} aria-label="Rate this lesson">
      <form className={styles.form} method="post" action={`${base}/review`} onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className={styles.stars} aria-describedby={errors.rating ? `rating-error-${id}` : undefined}>
          <legend className={styles.starsLegend}>How was your lesson with {teacherName}?</legend>
          <div className={styles.starOptions}>
            {RATINGS.map((value) => (
              <label key={value} className={styles.starOption}>
                <input type="radio" name="rating" value={value} defaultChecked={state.review?.rating === value} aria-label={`${value} out of 5`} />
                <span className={styles.star} aria-hidden="true">
                  ★
                </span>
                <span aria-hidden="true">{value}</span>
              </label>
            ))}
          </div>
          {errors.rating ? (
            <p id={`rating-error-${id}`} className={styles.error}>
              {errors.rating}
            </p>
          ) : null}
        </fieldset>
        <TextArea
          id={`comment-${id}`}
          name="comment"
          label="Comment (optional)"
          hint={`Shown on the teacher’s page with your first name. Up to ${REVIEW_COMMENT_MAX} characters.`}
          maxLength={REVIEW_COMMENT_MAX}
          defaultValue={state.review?.comment ?? ''}
          error={errors.comment}
        />
        <div className={styles.actions}>
          <Button type="submit" disabled={isLoading} aria-busy={isLoading || undefined}>
            {state.review ? 'Save review' : 'Send review'}
          </Button>
          {state.canReportTeacherAbsent ? (
            <Button type="submit" variant="ghost" formAction={`${base}/teacher-absent`} disabled={reporting} onClick={(event) => void report(event)}>
              The teacher did not come
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
