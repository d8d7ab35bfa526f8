import { DEFAULT_CANCEL_CUTOFF_HOURS, type LessonState } from '@learnlingo/contract';
import { LESSON_MS } from './schedule.js';

/*
 * Where one booking stands, for the teacher's side and every state change (decision 117). A
 * booking row is one of:
 * - a visitor's hold (hold_expires_at set): waits for its e-mail link (decision 102) — 'pending',
 *   or 'expired' once the link was not used in time. Not the teacher's yet: lists for the
 *   teacher leave holds out (hold_expires_at is null).
 * - a request (answer_by set, not accepted): 'requested' until answer_by, then 'expired' even
 *   before the sweep has written it (the sweep and every answer read the same deadline).
 * - a lesson (instant, or an accepted request): 'confirmed' until its end, then 'past'.
 * - ended by someone (cancelled_at set): 'declined' and 'expired' for requests (cancelled_by),
 *   'cancelled' for the rest (by the learner, the teacher or the school).
 * A booking without a start (made before lesson times existed) is 'confirmed' until cancelled.
 */

export type { LessonState };

/** The columns lessonState reads (a BookingRow, or a row of the teacher's lists). */
export interface LessonStateRow {
  start: Date | null;
  cancelledAt: Date | null;
  holdExpiresAt: Date | null;
  answerBy?: Date | null;
  cancelledBy?: string | null;
}

export function lessonState(row: LessonStateRow, now: number): LessonState {
  const hold = row.holdExpiresAt?.getTime() ?? null;
  if (hold !== null) {
    // a released hold has cancelled_at = its expiry; a learner's cancel of a hold comes before it
    if (row.cancelledAt) return row.cancelledAt.getTime() >= hold ? 'expired' : 'cancelled';
    return now >= hold ? 'expired' : 'pending';
  }
  if (row.cancelledAt) {
    if (row.cancelledBy === 'declined') return 'declined';
    if (row.cancelledBy === 'expired') return 'expired';
    return 'cancelled';
  }
  const answerBy = row.answerBy?.getTime() ?? null;
  if (answerBy !== null) return now >= answerBy ? 'expired' : 'requested';
  if (row.start && row.start.getTime() + LESSON_MS <= now) return 'past';
  return 'confirmed';
}

const HOUR_MS = 3_600_000;

/** A request waits for the teacher's answer at most this long … */
export const REQUEST_ANSWER_MS = 24 * HOUR_MS;
/** … and never later than this before the lesson starts. */
export const REQUEST_ANSWER_BEFORE_START_MS = HOUR_MS;
/** The least answer window a new request is given: starts sooner than this plus the hour before are not offered. */
export const REQUEST_MIN_ANSWER_MS = HOUR_MS;

/** When a request made (or, for a visitor, confirmed by e-mail) at `at` for `start` must be answered by. */
export function requestAnswerBy(at: number, start: number): number {
  return Math.min(at + REQUEST_ANSWER_MS, start - REQUEST_ANSWER_BEFORE_START_MS);
}

/** The earliest start a request may take at `at`: its answer window is at least REQUEST_MIN_ANSWER_MS. */
export const earliestRequestStart = (at: number) => at + REQUEST_ANSWER_BEFORE_START_MS + REQUEST_MIN_ANSWER_MS;

export { DEFAULT_CANCEL_CUTOFF_HOURS };

/** Whether a lesson starting at `start` may still be cancelled at `now` under a cut-off of `cutoffHours`. */
export const beforeCutoff = (start: Date | null, now: number, cutoffHours: number) =>
  start === null || start.getTime() - now > cutoffHours * HOUR_MS;
