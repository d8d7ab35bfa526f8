import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { REVIEW_HIDE_REASON_MAX, reviewMessages } from '@learnlingo/contract/plain';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { errorFields, genericErrorMessage, type RequestError } from '../../lib/api-error';
import { showToast } from '../../lib/toast';
import {
  ReviewView,
  reviewsApi,
  useGetAdminReviewsQuery,
  useGetImportedReviewsQuery,
  useHideImportedReviewMutation,
  useHideReviewMutation,
} from '../reviews';
import { consoleStyles, type ConsoleTabPage } from './console-layout-parts';
import styles from './reviews-tab.module.css';

/** The teacher whose imported reviews are shown (`?teacher=`), if any. */
const teacherOf = (search: URLSearchParams) => search.get('teacher')?.trim().slice(0, 100) || null;

/**
 * /admin/reviews: the newest reviews of lessons, hidden ones with their reason, and one
 * teacher's imported reviews (`?teacher=`); any review can be hidden with a reason (audited),
 * and the teacher's rating and count follow (decisions 112, 120).
 */
function ReviewsTab() {
  const [search] = useSearchParams();
  return (
    <div>
      <h2 className={consoleStyles.panelTitle}>Reviews</h2>
      <LessonReviews />
      <ImportedReviews key={teacherOf(search) ?? ''} teacherId={teacherOf(search)} />
    </div>
  );
}

function LessonReviews() {
  return (
    <section className={styles.section} aria-labelledby="lesson-reviews-title">
      <h3 id="lesson-reviews-title" className={styles.subTitle}>
        Reviews of lessons
      </h3>
      <LessonReviewList />
    </section>
  );
}

function LessonReviewList() {
  const { data, isLoading, isError } = useGetAdminReviewsQuery(undefined, { refetchOnMountOrArgChange: true });
  const [hide] = useHideReviewMutation();
  if (isLoading) return <Spinner label="Loading the reviews" />;
  if (isError || !data) return <p className={consoleStyles.muted}>Could not load the reviews.</p>;
  if (data.items.length === 0) return <p className={consoleStyles.muted}>No reviews of lessons yet.</p>;
  return (
    <ul className={styles.list} aria-label="Reviews of lessons">
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
          {review.hidden ? null : <HideForm onHide={(reason) => hide({ id: review.id, teacherId: review.teacherId, reason })} />}
        </li>
      ))}
    </ul>
  );
}

/** One teacher's imported reviews: chosen by id (a GET form, so the address says whose). */
function ImportedReviews({ teacherId }: { teacherId: string | null }) {
  const [, setSearch] = useSearchParams();
  const { data, error, isFetching } = useGetImportedReviewsQuery(teacherId ?? '', { skip: teacherId === null });
  const [hide] = useHideImportedReviewMutation();
  const choose = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = String(new FormData(event.currentTarget).get('teacher') ?? '').trim();
    setSearch(id ? { teacher: id } : {});
  };
  const notFound = error !== undefined && 'status' in error && (error.status === 404 || error.status === 400);
  return (
    <section className={styles.section} aria-labelledby="imported-reviews-title">
      <h3 id="imported-reviews-title" className={styles.subTitle}>
        Imported reviews
      </h3>
      <form className={styles.hideForm} method="get" onSubmit={choose}>
        <TextField
          className={styles.reason}
          label="Teacher id"
          name="teacher"
          defaultValue={teacherId ?? ''}
          placeholder="t000123"
          maxLength={100}
          error={notFound ? 'No teacher with this id' : undefined}
        />
        <Button type="submit" variant="secondary">
          Show reviews
        </Button>
      </form>
      {teacherId === null || notFound ? null : isFetching && !data ? (
        <Spinner label="Loading the imported reviews" />
      ) : error || !data ? (
        <p className={consoleStyles.muted}>Could not load the reviews.</p>
      ) : data.items.length === 0 ? (
        <p className={consoleStyles.muted}>This teacher has no imported reviews.</p>
      ) : (
        <>
          <p className={styles.about}>
            About {data.items[0]!.teacherName}: hiding one takes it out of the teacher’s page, rating and count.
          </p>
          <ul className={styles.list} aria-label={`Imported reviews of ${data.items[0]!.teacherName}`}>
            {data.items.map((review) => (
              <li key={review.id} className={styles.item}>
                <ReviewView name={review.reviewerName} rating={review.rating} comment={review.comment} lesson={null} reply={null} hidden={review.hidden} />
                {review.hidden ? null : <HideForm onHide={(reason) => hide({ id: review.id, teacherId: review.teacherId, reason })} />}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** What a hide mutation answers (RTK Query's result: its data, or its error). */
type HideResult = { error?: RequestError };

function HideForm({ onHide }: { onHide: (reason: string) => Promise<HideResult> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    if (!reason) return setError(reviewMessages.reasonRequired);
    setError(null);
    setBusy(true);
    const result = await onHide(reason);
    setBusy(false);
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
      <Button type="submit" variant="secondary" disabled={busy} aria-busy={busy || undefined}>
        Hide review
      </Button>
    </form>
  );
}

export const reviewsTab: ConsoleTabPage = {
  Component: ReviewsTab,
  prefetch: async ({ dispatch, searchParams }) => {
    const teacher = teacherOf(searchParams);
    await Promise.all([
      dispatch(reviewsApi.endpoints.getAdminReviews.initiate()),
      teacher ? dispatch(reviewsApi.endpoints.getImportedReviews.initiate(teacher)) : undefined,
    ]);
    return undefined;
  },
};
