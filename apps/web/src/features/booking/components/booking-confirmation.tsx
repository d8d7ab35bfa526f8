import type { BookingCreated } from '@learnlingo/contract';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ButtonLink } from '../../../components/ui/button-link';
import { calendarUrl } from '../api/booking-api';
import { formatTime, zoneLabel } from '../lib/lesson-time';
import { LessonWhen } from './lesson-when';
import styles from './booking.module.css';
import { requestTexts } from '../lib/request-texts';

export interface BookingConfirmationProps {
  created: BookingCreated;
  /** the zone the learner picked the time in */
  timeZone: string;
  isLoggedIn: boolean;
  /** closes the modal; on the booking page (no modal), `doneTo` is where "Done" leads instead */
  onDone?: () => void;
  doneTo?: string;
}

/**
 * After booking: when, with whom, and how to find the lesson again. Its links replace the
 * history entry the open modal holds (components/ui/modal), so that Back from the page they
 * open goes where the modal was opened, not to a copy of that page.
 */
export function BookingConfirmation({ created, timeZone, isLoggedIn, onDone, doneTo }: BookingConfirmationProps) {
  const { lesson, token } = created;
  // a teacher on request (decision 117): the time is kept until they answer
  const requested = lesson.status === 'requested';
  const hours = lesson.cancelCutoffHours ?? 12;
  const cancelRule = requested ? 'withdraw it until the teacher answers' : `cancel it up to ${hours} hour${hours === 1 ? '' : 's'} before it starts`;
  // (a visitor's booking is a hold, whose link is e-mailed: this is shown after the modal's only)
  const privateLink = () => `${typeof location === 'undefined' ? '' : location.origin}/bookings/${token ?? ''}`;
  return (
    <div className={styles.confirmation}>
      <dl className={styles.facts}>
        <div>
          <dt>When</dt>
          <dd>
            {lesson.start ? <LessonWhen start={lesson.start} end={lesson.end} timeZone={timeZone} /> : 'Time to be agreed'}
            <span className={styles.zone}> {zoneLabel(timeZone, lesson.start ? new Date(lesson.start) : undefined)}</span>
          </dd>
        </div>
        <div>
          <dt>Teacher</dt>
          <dd>
            {lesson.teacher.name} {lesson.teacher.surname}
          </dd>
        </div>
        {lesson.language ? (
          <div>
            <dt>Language</dt>
            <dd>{lesson.language}</dd>
          </div>
        ) : null}
      </dl>
      {requested ? (
        <p className={styles.waiting}>
          <strong>{requestTexts.waitingForTeacher}:</strong> {lesson.teacher.name} answers your request
          {lesson.answerBy ? ` by ${formatTime(lesson.answerBy, timeZone)}` : ''}. Until then the time is kept for you, and we e-mail you
          the answer.
        </p>
      ) : null}
      {token === null ? (
        <p>
          We have e-mailed you a link to confirm this lesson. Open it and press “Confirm lesson”
          {lesson.confirmBy ? ` by ${formatTime(lesson.confirmBy, timeZone)}` : ''}: until then the time is kept for you,
          after that it becomes free for others again.
        </p>
      ) : isLoggedIn ? (
        <p>
          You will find it in{' '}
          <Link to="/lessons" replace={onDone !== undefined} onClick={onDone}>
            My lessons
          </Link>
          , where you can also {cancelRule}.
        </p>
      ) : (
        <p>
          Keep this private link: it shows your booking and lets you {cancelRule}.{' '}
          <Link className={styles.privateLink} to={`/bookings/${token}`} replace={onDone !== undefined} onClick={onDone}>
            {privateLink()}
          </Link>
        </p>
      )}
      <div className={styles.actions}>
        {token === null || requested ? null : (
          <a className={styles.calendarLink} href={calendarUrl(lesson, token)} download="learnlingo-trial-lesson.ics">
            Add to calendar
          </a>
        )}
        {doneTo !== undefined ? <ButtonLink className={styles.doneLink} to={doneTo}>
            Done
          </ButtonLink> : <Button onClick={onDone}>Done</Button>}
      </div>
    </div>
  );
}
