import { useEffect, useState } from 'react';
import type { TeachLessonItem } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { genericErrorMessage, type RequestError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { useAcceptLessonMutation, useCancelLessonMutation, useDeclineLessonMutation } from '../api/lessons-api';
import { ReasonDialog, type ReasonAction } from './lessons-reason-dialog';
import { lessonSpan, wallMoment } from './lessons-time';
import styles from './lessons.module.css';

const STATE_LABEL: Record<TeachLessonItem['state'], string> = {
  requested: 'Waiting for your answer',
  confirmed: 'Confirmed',
  past: 'Done',
  cancelled: 'Cancelled',
  declined: 'Declined',
  expired: 'Expired unanswered',
  pending: 'Not confirmed yet',
};

const CANCELLED_BY_TEXT: Record<NonNullable<TeachLessonItem['cancelledBy']>, string> = {
  learner: 'Cancelled by the learner',
  teacher: 'Cancelled by you',
  school: 'Cancelled by the school',
  declined: 'You declined it',
  expired: 'Not answered in time: declined by the server',
};

/** What became of a lesson that did not take place, and why. */
function EndNote({ lesson }: { lesson: TeachLessonItem }) {
  if (!lesson.cancelledBy && !lesson.cancelReason) return null;
  return (
    <p className={styles.note}>
      {lesson.cancelledBy ? CANCELLED_BY_TEXT[lesson.cancelledBy] : 'Cancelled'}
      {lesson.cancelReason ? `. Reason: ${lesson.cancelReason}` : ''}
    </p>
  );
}

const errorOf = (result: { error?: unknown }) => (result.error ? (result.error as RequestError) : null);

/** The answers a lesson allows: accept or decline a request; cancel a confirmed lesson before the cut-off. */
function LessonActions({ lesson, when }: { lesson: TeachLessonItem; when: string }) {
  const [accept, accepting] = useAcceptLessonMutation();
  const [decline] = useDeclineLessonMutation();
  const [cancel] = useCancelLessonMutation();
  const [dialog, setDialog] = useState<ReasonAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the server renders the buttons; they work once the app runs
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  if (lesson.state !== 'requested' && !lesson.cancellable) return null;

  const onAccept = async () => {
    setError(null);
    const failed = errorOf(await accept({ id: lesson.id }));
    if (failed) setError(genericErrorMessage(failed));
    else void showToast('success', `Accepted: ${lesson.learner.fullName}, ${when}. The learner is told.`);
  };
  const onReason = async (reason: string | undefined) => {
    const failed = errorOf(dialog === 'cancel' ? await cancel({ id: lesson.id, reason: reason ?? '' }) : await decline({ id: lesson.id, reason }));
    if (!failed) void showToast('success', dialog === 'cancel' ? 'Lesson cancelled. The learner is told.' : 'Request declined. The learner is told.');
    return failed;
  };
  const who = `${lesson.learner.fullName}, ${when}`;

  return (
    <>
      <div className={styles.actions}>
        {lesson.state === 'requested' ? (
          <>
            <Button disabled={!live || accepting.isLoading} aria-busy={accepting.isLoading || undefined} onClick={() => void onAccept()} aria-label={`Accept: ${who}`}>
              Accept
            </Button>
            <Button variant="secondary" disabled={!live} onClick={() => setDialog('decline')} aria-label={`Decline: ${who}`}>
              Decline…
            </Button>
          </>
        ) : (
          <Button variant="secondary" disabled={!live} onClick={() => setDialog('cancel')} aria-label={`Cancel: ${who}`}>
            Cancel…
          </Button>
        )}
      </div>
      {error ? (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      ) : null}
      {dialog ? <ReasonDialog action={dialog} lesson={lesson} when={when} onClose={() => setDialog(null)} onSubmit={onReason} /> : null}
    </>
  );
}

/** One lesson: learner, language, time on the teacher's clock, the learner's reason, its state and answers. */
export function LessonItem({ lesson, timeZone }: { lesson: TeachLessonItem; timeZone: string }) {
  const span = lessonSpan(lesson);
  return (
    <article className={styles.lesson} aria-labelledby={`lesson-${lesson.id}`}>
      <p className={styles.state} data-state={lesson.state}>
        {STATE_LABEL[lesson.state]}
      </p>
      <h3 id={`lesson-${lesson.id}`} className={styles.learner}>
        {lesson.learner.fullName}
      </h3>
      <p className={styles.when}>
        <time dateTime={lesson.start ?? undefined}>{span}</time>
        {lesson.language ? <span className={styles.language}> · {lesson.language}</span> : null}
      </p>
      <p className={styles.reason}>
        <span className={styles.muted}>Reason: </span>
        {lesson.reason}
      </p>
      {lesson.answerByLocal ? <p className={styles.deadline}>Answer by {wallMoment(lesson.answerByLocal)}, or it is declined on its own.</p> : null}
      {lesson.state === 'confirmed' && !lesson.cancellable ? <p className={styles.note}>Too close to the start to cancel (the school’s cut-off).</p> : null}
      <EndNote lesson={lesson} />
      <LessonActions lesson={lesson} when={`${span} (${timeZone})`} />
    </article>
  );
}
