import { useState } from 'react';
import { cancelTooLateMessage, lessonMessages, type Lesson } from '@learnlingo/contract';
import { TeacherAvatar } from '../../teachers';
import { Button } from '../../../components/ui/button';
import { errorCode, errorStatus, genericErrorMessage, type RequestError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { calendarUrl } from '../api/booking-api';
import { formatTime } from '../lib/lesson-time';
import { LessonWhen } from './lesson-when';
import styles from './booking.module.css';
import { requestTexts } from '../lib/request-texts';

const STATUS_LABEL: Record<Lesson['status'], string> = {
  upcoming: 'Upcoming',
  past: 'Past',
  cancelled: 'Cancelled',
  unscheduled: 'Time to be agreed',
  pending: 'Waiting for your confirmation',
  expired: 'Not confirmed in time',
  requested: requestTexts.waitingForTeacher,
  declined: 'Declined',
};

/** The label a card shows: a request nobody answered is "Expired", a booking never confirmed by e-mail "Not confirmed in time". */
const statusLabel = (lesson: Lesson) => (lesson.status === 'expired' && lesson.cancelledBy === 'expired' ? 'Expired' : STATUS_LABEL[lesson.status]);

export interface LessonCardProps {
  lesson: Lesson;
  /** the learner's zone */
  timeZone: string;
  /** the private link's token, when the lesson is seen through it */
  token?: string;
  /** cancels; resolves to the request's error, if any */
  onCancel: () => Promise<RequestError | null>;
  /** confirms a pending booking (its private link's page only); resolves to the lesson as it now is, or the request's error */
  onConfirm?: () => Promise<{ lesson: Lesson } | { error: RequestError }>;
  headingLevel?: 2 | 3;
}

function cancelFailure(error: RequestError, cutoffHours: number): string {
  if (errorCode(error) === 'CANCEL_TOO_LATE') return cancelTooLateMessage(cutoffHours);
  const status = errorStatus(error);
  return status !== undefined && status >= 500 ? lessonMessages.cancelFailed : genericErrorMessage(error);
}

/** One trial lesson: teacher, language, time in the learner's zone; add to calendar; cancel. */
function confirmFailure(error: RequestError): string {
  if (errorCode(error) === 'BOOKING_EXPIRED') return lessonMessages.holdExpired;
  const status = errorStatus(error);
  return status !== undefined && status >= 500 ? lessonMessages.confirmFailed : genericErrorMessage(error);
}

/** "Their reason: …" under a teacher's decline or cancel. */
const theirReason = (lesson: Lesson) => (lesson.cancelReason ? ` Their reason: ${lesson.cancelReason}` : '');

/** What a pending, requested or ended booking needs said, under its time. */
function HoldNote({ lesson, timeZone, canConfirm }: { lesson: Lesson; timeZone: string; canConfirm: boolean }) {
  if (lesson.status === 'expired') {
    return <p className={styles.lessonNote}>{lesson.cancelledBy === 'expired' ? requestTexts.requestExpired : lessonMessages.holdExpired}</p>;
  }
  if (lesson.status === 'requested') {
    const by = lesson.answerBy ? ` by ${formatTime(lesson.answerBy, timeZone)}` : '';
    return (
      <p className={styles.lessonNote}>
        {`${lesson.teacher.name} answers your request${by}. Until then the time is kept for you; we e-mail you the answer.`}
      </p>
    );
  }
  if (lesson.status === 'declined') return <p className={styles.lessonNote}>{`${requestTexts.requestDeclined}${theirReason(lesson)}`}</p>;
  if (lesson.status === 'cancelled' && lesson.cancelledBy === 'teacher') {
    return <p className={styles.lessonNote}>{`Cancelled by the teacher.${theirReason(lesson)}`}</p>;
  }
  if (lesson.status !== 'pending') return null;
  const by = lesson.confirmBy ? ` by ${formatTime(lesson.confirmBy, timeZone)}` : '';
  return (
    <p className={styles.lessonNote}>
      {canConfirm
        ? `Confirm it${by}, or the time becomes free for others again.`
        : `Confirm it${by} with the link we e-mailed you, or the time becomes free for others again.`}
    </p>
  );
}

export function LessonCard({ lesson, timeZone, token, onCancel, onConfirm, headingLevel = 3 }: LessonCardProps) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmingHold, setConfirmingHold] = useState(false);
  const name = `${lesson.teacher.name} ${lesson.teacher.surname}`;
  const Heading = `h${headingLevel}` as const;

  const isRequest = lesson.status === 'requested';
  const cutoffHours = lesson.cancelCutoffHours ?? 12;
  const cancel = async () => {
    setBusy(true);
    const error = await onCancel();
    setBusy(false);
    setConfirming(false);
    if (error) void showToast('error', cancelFailure(error, cutoffHours));
    else void showToast('success', isRequest ? requestTexts.requestWithdrawn : lessonMessages.lessonCancelled);
  };

  const confirmHold = async () => {
    if (!onConfirm) return;
    setConfirmingHold(true);
    const result = await onConfirm();
    setConfirmingHold(false);
    if ('error' in result) void showToast('error', confirmFailure(result.error));
    else void showToast('success', result.lesson.status === 'requested' ? requestTexts.requestConfirmed : lessonMessages.lessonConfirmed);
  };

  return (
    <article className={styles.lessonCard} aria-label={`${lesson.language ?? 'Trial'} lesson with ${name}`}>
      <TeacherAvatar teacherId={lesson.teacher.id} source={lesson.teacher.avatarUrl} name={name} size={56} />
      <div className={styles.lessonMain}>
        <p className={styles.lessonStatus} data-status={lesson.status}>
          {statusLabel(lesson)}
        </p>
        <Heading className={styles.lessonTitle}>
          {lesson.language ? `${lesson.language} with ${name}` : `Trial lesson with ${name}`}
        </Heading>
        <p className={styles.lessonTime}>
          {lesson.start ? <LessonWhen start={lesson.start} end={lesson.end} timeZone={timeZone} /> : 'Time to be agreed'}
        </p>
        <HoldNote lesson={lesson} timeZone={timeZone} canConfirm={onConfirm !== undefined} />
        <div className={styles.lessonActions}>
          {lesson.status === 'pending' && onConfirm && token ? (
            // a form the server answers (before the app runs, or without JavaScript: decision 105); the app confirms in place
            <form
              method="post"
              action={`/bookings/${encodeURIComponent(token)}/confirm`}
              onSubmit={(event) => {
                event.preventDefault();
                void confirmHold();
              }}
            >
              <Button type="submit" disabled={confirmingHold} aria-busy={confirmingHold || undefined}>
                Confirm lesson
              </Button>
            </form>
          ) : null}
          {lesson.start && (lesson.status === 'upcoming' || lesson.status === 'past') ? (
            <a className={styles.lessonLink} href={calendarUrl(lesson, token)} download="learnlingo-trial-lesson.ics">
              Add to calendar
            </a>
          ) : null}
          {lesson.cancellable ? (
            confirming ? (
              <div className={styles.lessonConfirm} role="group" aria-label={isRequest ? 'Withdraw this request?' : 'Cancel this lesson?'}>
                <span>{isRequest ? 'Withdraw this request?' : 'Cancel this lesson?'}</span>
                <Button variant="dark" disabled={busy} aria-busy={busy || undefined} onClick={() => void cancel()}>
                  {isRequest ? 'Yes, withdraw it' : 'Yes, cancel it'}
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => setConfirming(false)}>
                  Keep it
                </Button>
              </div>
            ) : token ? (
              // by the private link, a form the server answers without JavaScript (decision 105); the app asks first
              <form
                method="post"
                action={`/bookings/${encodeURIComponent(token)}/cancel`}
                onSubmit={(event) => {
                  event.preventDefault();
                  setConfirming(true);
                }}
              >
                <Button type="submit" variant="secondary">
                  {isRequest ? 'Withdraw request' : 'Cancel lesson'}
                </Button>
              </form>
            ) : (
              <Button variant="secondary" onClick={() => setConfirming(true)}>
                {isRequest ? 'Withdraw request' : 'Cancel lesson'}
              </Button>
            )
          ) : lesson.status === 'upcoming' ? (
            // the school's cut-off (decision 117), for learners and teachers alike
            <span className={styles.lessonNote}>{`Can no longer be cancelled (less than ${cutoffHours} hour${cutoffHours === 1 ? '' : 's'} to go)`}</span>
          ) : null}
        </div>
      </div>
    </article>
  );
}
