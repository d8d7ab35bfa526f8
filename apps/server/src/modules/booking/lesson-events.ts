import type { Db } from '../../db/client.js';
import { enqueueMail } from '../../mail/index.js';
import { queueReviewAsk } from '../reviews/review-mail.js';
import { takeBackReviewMail } from '../reviews/review-service.js';
import { lessonMails } from './booking-mail.js';
import type { BookingRow } from './booking-repository.js';
import { requestMails, type RequestMailKind } from './request-mail.js';
import type { Schedule } from './schedule.js';

/*
 * What each change of a booking's state tells people (issue 25, decision 117): ONE function per
 * event, called in the transaction of the change itself, so a lesson and its e-mails exist
 * together or not at all, and the e-mails (booking-mail.ts, request-mail.ts) hook in here only.
 * The review ask (decision 112) goes with the private link, known only where the booking is
 * made or confirmed: it is queued then (for a request too) and taken back by every ending.
 */

export interface LessonEventContext {
  /** the school's hours: their zone is the zone of teachers without their own */
  schoolSchedule: Schedule;
  /** receives the teacher's copy (unset: none) */
  schoolEmail: string | undefined;
  publicOrigin: string;
}

type Dated = BookingRow & { start: Date };

/**
 * Where the learner sees the booking in a later e-mail: the private link is known only when
 * the booking is made or confirmed (its token is stored hashed), so later it is My lessons for
 * an account, or nothing (the learner keeps the link of their first e-mail).
 */
export const laterManageUrl = (row: BookingRow, c: LessonEventContext) => (row.userId ? `${c.publicOrigin}/lessons` : '');

const zoneOf = (row: BookingRow) => row.learnerTimeZone ?? 'UTC';

async function queue(tx: Db, messages: readonly Parameters<typeof enqueueMail>[1][]) {
  for (const message of messages) await enqueueMail(tx, message);
}

async function requestEvent(tx: Db, kind: RequestMailKind, row: BookingRow, c: LessonEventContext, manageUrl: string, reason?: string | null) {
  if (!row.start) return;
  await queue(
    tx,
    requestMails(kind, row as Dated, { manageUrl, learnerTimeZone: zoneOf(row), schoolSchedule: c.schoolSchedule, schoolEmail: c.schoolEmail, reason }),
  );
}

/** An instant lesson is booked (or a visitor's hold of one confirmed): the learner's e-mail with the .ics, the teacher's copy. */
export async function lessonBooked(tx: Db, row: BookingRow, c: LessonEventContext, manageUrl: string): Promise<void> {
  if (!row.start) return;
  await queue(tx, lessonMails('booked', row as Dated, { manageUrl, learnerTimeZone: zoneOf(row), schoolSchedule: c.schoolSchedule, schoolEmail: c.schoolEmail }));
  await queueReviewAsk(tx, row, manageUrl);
}

/** A request is made (or a visitor's hold of one confirmed): the learner hears when to expect the answer, the teacher is asked. */
export async function lessonRequested(tx: Db, row: BookingRow, c: LessonEventContext, manageUrl: string): Promise<void> {
  await requestEvent(tx, 'requested', row, c, manageUrl);
  // due after the lesson; taken back if the request never becomes one
  await queueReviewAsk(tx, row, manageUrl);
}

/** The teacher accepted: the learner's confirmation with the .ics. */
export async function requestAccepted(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await requestEvent(tx, 'accepted', row, c, laterManageUrl(row, c));
}

/** The teacher declined (reason optional). */
export async function requestDeclined(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await requestEvent(tx, 'declined', row, c, laterManageUrl(row, c), row.cancelReason);
  await takeBackReviewMail(tx, row.id);
}

/** Nobody answered by answer_by: declined by the server; the learner is told at once. Nothing is held against the teacher. */
export async function requestExpired(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await requestEvent(tx, 'expired', row, c, laterManageUrl(row, c));
  await takeBackReviewMail(tx, row.id);
}

/** The learner cancelled a lesson, or withdrew a request (`wasRequest`). */
export async function cancelledByLearner(tx: Db, row: BookingRow, c: LessonEventContext, manageUrl: string, wasRequest: boolean): Promise<void> {
  if (wasRequest) await requestEvent(tx, 'withdrawn', row, c, manageUrl);
  else if (row.start) {
    await queue(tx, lessonMails('cancelled', row as Dated, { manageUrl, learnerTimeZone: zoneOf(row), schoolSchedule: c.schoolSchedule, schoolEmail: c.schoolEmail }));
  }
  await takeBackReviewMail(tx, row.id);
}

/** The teacher cancelled a confirmed lesson, with a reason the learner is told. */
export async function cancelledByTeacher(tx: Db, row: BookingRow, c: LessonEventContext): Promise<void> {
  await requestEvent(tx, 'teacher-cancelled', row, c, laterManageUrl(row, c), row.cancelReason);
  await takeBackReviewMail(tx, row.id);
}
