import { Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { cancelTooLateMessage, lessonMessages, type Lesson, type LessonReviewState } from '@learnlingo/contract';
import { LessonReviewBox, useGetReviewStateByTokenQuery, useGetReviewStatesQuery } from '../../reviews';
import { ButtonLink } from '../../../components/ui/button-link';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Spinner } from '../../../components/ui/spinner';
import { lazyChunk } from '../../../lib/lazy-chunk';
import {
  useCancelBookingByTokenMutation,
  useCancelLessonMutation,
  useConfirmBookingByTokenMutation,
  useGetBookingByTokenQuery,
  useGetLessonsQuery,
} from '../api/booking-api';
import { useBrowserTimeZone } from '../hooks/use-browser-time-zone';
import { groupLessons } from '../lib/lesson-groups';
import { zoneLabel } from '../lib/lesson-time';
import { LessonCard } from './lesson-card';
import styles from './booking.module.css';
import { requestTexts } from '../lib/request-texts';

/** The learner's private calendar feed (decision 118), a chunk of its own. */
const LearnerCalendarFeed = lazyChunk(() => import('../calendar-feed'));

function LessonList({
  title,
  lessons,
  timeZone,
  reviews,
}: {
  title: string;
  lessons: Lesson[];
  timeZone: string;
  /** each past lesson's review state, by booking id (decision 112) */
  reviews?: ReadonlyMap<string, LessonReviewState>;
}) {
  const [cancelLesson] = useCancelLessonMutation();
  return (
    <section className={styles.lessonSection} aria-labelledby={`lessons-${title}`}>
      <h2 id={`lessons-${title}`} className={styles.lessonSectionTitle}>
        {title}
      </h2>
      <ul className={styles.lessonList}>
        {lessons.map((lesson) => (
          <li key={lesson.id}>
            <LessonCard
              lesson={lesson}
              timeZone={timeZone}
              onCancel={async () => (await cancelLesson({ id: lesson.id, teacherId: lesson.teacher.id })).error ?? null}
            />
            <ReviewFor lesson={lesson} state={reviews?.get(lesson.id)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A past lesson's review: the form, the review written, or why there is none. */
function ReviewFor({ lesson, state, token }: { lesson: Lesson; state: LessonReviewState | undefined; token?: string }) {
  if (!state || lesson.status !== 'past') return null;
  return (
    <LessonReviewBox
      state={state}
      lesson={token ? { token } : { bookingId: lesson.id }}
      teacherId={lesson.teacher.id}
      teacherName={`${lesson.teacher.name} ${lesson.teacher.surname}`}
    />
  );
}

/** /lessons: the signed-in learner's lessons, upcoming (cancelled ones ahead included) then past. */
export function MyLessons() {
  const timeZone = useBrowserTimeZone();
  // (when the page was opened: a lesson cancelled before then and still ahead is upcoming)
  const [now] = useState(Date.now);
  const { data, isLoading, isError, refetch } = useGetLessonsQuery(undefined, { refetchOnMountOrArgChange: true });
  const { upcoming, past } = groupLessons(data?.items ?? [], now);
  const { data: reviewStates } = useGetReviewStatesQuery(undefined, { refetchOnMountOrArgChange: true, skip: past.length === 0 });
  const reviews = new Map((reviewStates?.items ?? []).map((state) => [state.bookingId, state]));
  return (
    <div className={styles.lessonPage}>
      <h1 className={styles.lessonHeading}>My lessons</h1>
      <p className={styles.lessonZoneNote}>Times in {zoneLabel(timeZone)}</p>
      {isLoading ? (
        <Spinner label="Loading your lessons" />
      ) : isError || !data ? (
        <EmptyState title="Could not load your lessons" action={<Button onClick={() => void refetch()}>Try again</Button>}>
          Check your connection and try again.
        </EmptyState>
      ) : data.items.length === 0 ? (
        <EmptyState title="No lessons yet" action={<ButtonLink to="/teachers">Find a teacher</ButtonLink>}>
          Book a trial lesson from a teacher’s card and it will be waiting for you here.
        </EmptyState>
      ) : (
        <>
          {upcoming.length > 0 ? <LessonList title="Upcoming" lessons={upcoming} timeZone={timeZone} /> : null}
          {past.length > 0 ? <LessonList title="Past" lessons={past} timeZone={timeZone} reviews={reviews} /> : null}
        </>
      )}
      <Suspense fallback={null}>
        <LearnerCalendarFeed />
      </Suspense>
    </div>
  );
}

/** /bookings/:token: one booking seen through its private link. */
export function PrivateBooking({ token }: { token: string }) {
  const timeZone = useBrowserTimeZone();
  const { data, isLoading, isError, error, refetch } = useGetBookingByTokenQuery(token);
  const [cancelByToken] = useCancelBookingByTokenMutation();
  const [confirmByToken] = useConfirmBookingByTokenMutation();
  const missing = isError && error && 'status' in error && (error.status === 404 || error.status === 400);
  const [search] = useSearchParams();
  const confirmed = search.has('confirmed');
  // a cancel posted without JavaScript comes back with ?cancelled, or ?cancel=late past the cut-off
  const cancelledNow = search.has('cancelled');
  const tooLate = search.get('cancel') === 'late';
  const { data: reviewState } = useGetReviewStateByTokenQuery(token, { skip: data?.status !== 'past' });
  return (
    <div className={styles.lessonPage}>
      <h1 className={styles.lessonHeading}>Your trial lesson</h1>
      {isLoading ? (
        <Spinner label="Loading your booking" />
      ) : missing ? (
        <EmptyState title="This booking link does not work" action={<ButtonLink to="/teachers">Find a teacher</ButtonLink>}>
          Check that the whole link was copied from your confirmation.
        </EmptyState>
      ) : isError || !data ? (
        <EmptyState title="Could not load your booking" action={<Button onClick={() => void refetch()}>Try again</Button>}>
          Check your connection and try again.
        </EmptyState>
      ) : (
        <>
          {/* "Confirm lesson" posted without JavaScript comes back here (decision 105) */}
          {confirmed && (data.status === 'upcoming' || data.status === 'requested') ? (
            <p role="status" className={styles.lessonNotice}>
              {data.status === 'requested' ? requestTexts.requestConfirmed : lessonMessages.lessonConfirmed}
            </p>
          ) : null}
          {cancelledNow && data.status === 'cancelled' ? (
            <p role="status" className={styles.lessonNotice}>
              {lessonMessages.lessonCancelled}
            </p>
          ) : null}
          {tooLate && data.status === 'upcoming' ? (
            <p role="alert" className={styles.lessonNotice}>
              {cancelTooLateMessage(data.cancelCutoffHours ?? 12)}
            </p>
          ) : null}
          <p className={styles.lessonZoneNote}>Times in {zoneLabel(timeZone)}</p>
          <LessonCard
            lesson={data}
            timeZone={timeZone}
            token={token}
            headingLevel={2}
            onCancel={async () => (await cancelByToken({ token, teacherId: data.teacher.id })).error ?? null}
            onConfirm={async () => {
              const result = await confirmByToken({ token, teacherId: data.teacher.id });
              return result.data ? { lesson: result.data } : { error: result.error };
            }}
          />
          <ReviewFor lesson={data} state={reviewState} token={token} />
        </>
      )}
    </div>
  );
}
