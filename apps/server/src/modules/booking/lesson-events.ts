import type { Db } from '../../db/client.js';
import { queueReviewAsk } from '../reviews/review-mail.js';
import { takeBackReviewMail } from '../reviews/review-service.js';
import { queueLessonMails, type LessonEvent } from './booking-mail.js';
import type { BookingRow } from './booking-repository.js';
import type { Schedule } from './schedule.js';

/*
 * What each change of a booking's state tells people (issue 25, decisions 117 and 118): ONE
 * function per event, called in the transaction of the change itself, so a lesson and its
 * e-mails exist together or not at all. Each hands its event to queueLessonMails
 * (booking-mail.ts): the learner's, the teacher's (their account's address) and the school's
 * copy, each in its reader's zone, with the .ics's next SEQUENCE, and the reminders queued
 * (confirmed) or taken back (ended). The review ask (decision 112) goes with the private link,
 * known only where the booking is made or confirmed: it is queued then (for a request too) and
 * taken back by every ending.
 */

export interface LessonEventContext {
  /** the school's hours: their zone is the zone of teachers without their own */
  schoolSchedule: Schedule;
  /** the school's copy (unset: none) */
  schoolEmail: string | undefined;
  publicOrigin: string;
  /** the clock (ms): a reminder whose time is past is not queued (default Date.now) */
  now?: () => number;
  /**
   * The school's hours and address as the console set them, read in the change's transaction
   * (decision 119); unset: schoolSchedule and schoolEmail.
   */
  school?: (tx: Db) => Promise<{ schedule: Schedule; email: string | undefined }>;
}

/**
 * Where the learner sees the booking in a later e-mail: the private link is known only when
 * the booking is made or confirmed (its token is stored hashed), so later it is My lessons for
 * an account, or nothing (the learner keeps the link of their first e-mail).
 */
export const laterManageUrl = (row: BookingRow, c: LessonEventContext) => (row.userId ? `${c.publicOrigin}/lessons` : '');

async function mails(tx: Db, event: LessonEvent, row: BookingRow, c: LessonEventContext, manageUrl: string): Promise<void> {
  const school = c.school ? await c.school(tx) : { schedule: c.schoolSchedule, email: c.schoolEmail };
  await queueLessonMails(tx, event, row, {
    publicOrigin: c.publicOrigin,
    manageUrl,
    schoolSchedule: school.schedule,
    schoolEmail: school.email,
    now: (c.now ?? Date.now)(),
  });
}

/** An instant lesson is booked (or a visitor's hold of one confirmed): both sides' e-mails with the .ics, the reminders. */
export async function lessonBooked(tx: Db, row: BookingRow, c: LessonEventContext, manageUrl: string): Promise<void> {
  await mails(tx, { kind: 'booked' }, row, c, manageUrl);
  await queueReviewAsk(tx, row, manageUrl);
}

/** A request is made (or a visitor's hold of one confirmed): the learner hears when to expect the answer, the teacher is asked. */
export async function lessonRequested(tx: Db, row: BookingRow, c: LessonEventContext, manageUrl: string): Promise<void> {
  await mails(tx, { kind: 'requested' }, row, c, manageUrl);
  // due after the lesson; taken back if the request never becomes one
  await queueReviewAsk(tx, row, manageUrl);
}

/** The teacher accepted: both sides' confirmation (.ics SEQUENCE + 1), the reminders. */
export async function requestAccepted(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await mails(tx, { kind: 'accepted' }, row, c, laterManageUrl(row, c));
}

/** The teacher declined (reason optional). */
export async function requestDeclined(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await mails(tx, { kind: 'declined', reason: row.cancelReason }, row, c, laterManageUrl(row, c));
  await takeBackReviewMail(tx, row.id);
}

/** Nobody answered by answer_by: declined by the server; the learner is told at once. Nothing is held against the teacher. */
export async function requestExpired(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await mails(tx, { kind: 'expired' }, row, c, laterManageUrl(row, c));
  await takeBackReviewMail(tx, row.id);
}

/** The learner cancelled a lesson, or withdrew a request (`wasRequest`). */
export async function cancelledByLearner(tx: Db, row: BookingRow, c: LessonEventContext, manageUrl: string, wasRequest: boolean): Promise<void> {
  await mails(tx, wasRequest ? { kind: 'withdrawn' } : { kind: 'cancelled', by: 'learner' }, row, c, manageUrl);
  await takeBackReviewMail(tx, row.id);
}

/** The teacher cancelled a confirmed lesson, with a reason the learner is told. */
export async function cancelledByTeacher(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await mails(tx, { kind: 'cancelled', by: 'teacher', reason: row.cancelReason }, row, c, laterManageUrl(row, c));
  await takeBackReviewMail(tx, row.id);
}
