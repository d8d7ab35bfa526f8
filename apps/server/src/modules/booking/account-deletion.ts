import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { booking } from '../../db/schema.js';
import { queueLessonMails } from './booking-mail.js';
import { createBookingRepository, type BookingRow } from './booking-repository.js';
import type { Schedule } from './schedule.js';

/*
 * What deleting an account does to its lessons (decision 104): a lesson that has not started
 * (or a hold) is cancelled — its time is free for others again and the school is told, as for
 * any cancellation of a lesson — so no slot is held by an account that no longer exists. Past lessons stay
 * the school's record (teacher, time, language, reason) and lose the learner's details with
 * the account (plugins/auth-account.ts).
 */

export interface LessonCancellationOptions {
  /**
   * The school now (the console's settings over SCHOOL_*, decision 119): its hours' zone is the
   * zone of teachers without their own; its address receives the school's copy (unset: none).
   */
  school: () => Promise<{ schedule: Schedule; email: string | undefined }>;
  /** the clock (ms since the epoch): a lesson starting after it is upcoming */
  now: () => number;
}

/**
 * Thrown inside the deletion's transaction when a lesson of the user's was booked after the read
 * (another tab, a booking under way): the caller rolls back and starts again from the read.
 */
export class LessonsChanged extends Error {}

/** Who the school's copy names: the learner's details go with the account. */
const DELETED_LEARNER = { fullName: 'Account deleted', email: 'address removed' } as const;

/**
 * Reads the user's lessons that have not started yet, and returns the step that cancels them
 * inside the caller's transaction (the account deletion's), queueing the school's copy of each
 * cancellation there too. The read happens first, outside it: PGlite has one connection,
 * which the transaction holds. The step then looks again, in the transaction: a lesson still to
 * come that the read did not see (booked meanwhile) throws LessonsChanged, for the caller to
 * start again — it would otherwise keep its slot, and the school would never hear of it. The
 * caller holds the user's row locked by then, so no booking of theirs can be added after that
 * look. Returns how many lessons the step cancelled.
 */
export async function prepareLessonCancellation(
  db: Database,
  userId: string,
  options: LessonCancellationOptions,
): Promise<(tx: Db) => Promise<number>> {
  const repository = createBookingRepository(db);
  const at = new Date(options.now());
  const school = await options.school();
  const upcoming = (await repository.listOwned(userId)).filter(
    (row): row is BookingRow & { start: Date } => row.cancelledAt === null && row.start !== null && row.start > at,
  );
  return async (tx) => {
    let cancelled = 0;
    for (const row of upcoming) {
      const what = await repository.cancel(tx, row.id, at, at);
      // null: cancelled meanwhile (by the learner, or another deletion): nothing to tell
      if (!what) continue;
      cancelled += 1;
      // a hold (decision 102) was never announced to the school: nothing to take back. Asked of the
      // cancel, not of the read: a hold confirmed since then was announced, and is a lesson now.
      if (what === 'hold') continue;
      const anonymous: BookingRow & { start: Date } = { ...row, ...DELETED_LEARNER, cancelledAt: at };
      // the teacher's and the school's e-mails only: the learner's account (and address) is being deleted
      await queueLessonMails(tx, { kind: 'cancelled', by: 'learner' }, anonymous, {
        publicOrigin: '',
        manageUrl: '',
        schoolSchedule: school.schedule,
        schoolEmail: school.email,
        now: at.getTime(),
        learner: false,
      });
    }
    const missed = await tx
      .select({ id: booking.id })
      .from(booking)
      .where(and(eq(booking.userId, userId), isNull(booking.cancelledAt), gt(booking.start, at)))
      .limit(1);
    if (missed.length > 0) throw new LessonsChanged('a lesson was booked during the deletion of an account');
    return cancelled;
  };
}
