import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { rowsOf } from '../../catalogue/index.js';
import type { Database, Db } from '../../db/client.js';
import { booking, schoolSettings } from '../../db/schema.js';
import { selectBookings, toBookingRow, type BookingRow } from './booking-repository.js';
import { cancelledByTeacher, requestAccepted, requestDeclined, requestExpired, type LessonEventContext } from './lesson-events.js';
import { DEFAULT_CANCEL_CUTOFF_HOURS } from './lesson-state.js';

/*
 * The teacher's answers and the server's expiry (issue 25, decision 117). Each change is ONE
 * conditional UPDATE whose WHERE is the state it leaves ("still requested at `at`", "still a
 * confirmed lesson before the cut-off"): of concurrent accepts, declines and the expiry sweep,
 * on one server or several, the first to commit changes the row and the others match nothing
 * (PostgreSQL re-reads a row another transaction changed before applying the WHERE). The
 * event's e-mails are queued in the same transaction (lesson-events.ts).
 */

const HOUR_MS = 3_600_000;

/** The school's cancellation cut-off in hours (the console's setting; none set: 12). */
export async function readCancelCutoffHours(db: Db): Promise<number> {
  const [row] = await db.select({ hours: schoolSettings.cancelCutoffHours }).from(schoolSettings).where(eq(schoolSettings.id, 1));
  return row?.hours ?? DEFAULT_CANCEL_CUTOFF_HOURS;
}

async function reread(tx: Db, id: string): Promise<BookingRow> {
  const [row] = await selectBookings(tx).where(eq(booking.id, id));
  if (!row) throw new Error('the booking just changed is not there');
  return toBookingRow(row);
}

/** The teacher's booking with this id (any state), or null when it is not theirs. */
export async function findTeachersBooking(db: Db, teacherId: string, id: string): Promise<BookingRow | null> {
  const [row] = await selectBookings(db).where(and(eq(booking.id, id), eq(booking.teacherId, teacherId)));
  return row ? toBookingRow(row) : null;
}

/** "still a request waiting for its answer at `at`": not a visitor's hold, not ended, before answer_by */
const stillRequested = (teacherId: string, id: string, at: Date) =>
  and(eq(booking.id, id), eq(booking.teacherId, teacherId), isNull(booking.cancelledAt), isNull(booking.holdExpiresAt), gt(booking.answerBy, at));

/** Accepts the request if it still waits at `at`: it becomes a confirmed lesson. null: it does not wait (any more). */
export async function acceptRequest(tx: Db, c: LessonEventContext, teacherId: string, id: string, at: Date): Promise<BookingRow | null> {
  const changed = await tx.update(booking).set({ answerBy: null, acceptedAt: at }).where(stillRequested(teacherId, id, at)).returning({ id: booking.id });
  if (changed.length === 0) return null;
  const row = await reread(tx, id);
  await requestAccepted(tx, row, c);
  return row;
}

/** Declines the request if it still waits at `at` (its slot is free at once). null: it does not wait (any more). */
export async function declineRequest(tx: Db, c: LessonEventContext, teacherId: string, id: string, at: Date, reason: string | null): Promise<BookingRow | null> {
  const changed = await tx
    .update(booking)
    .set({ cancelledAt: at, cancelledBy: 'declined', cancelReason: reason })
    .where(stillRequested(teacherId, id, at))
    .returning({ id: booking.id });
  if (changed.length === 0) return null;
  const row = await reread(tx, id);
  await requestDeclined(tx, row, c);
  return row;
}

/** Cancels a confirmed lesson of the teacher's that starts after the cut-off from `at`. null: it is not one (any more). */
export async function cancelByTeacher(
  tx: Db,
  c: LessonEventContext,
  teacherId: string,
  id: string,
  at: Date,
  cutoffHours: number,
  reason: string,
): Promise<BookingRow | null> {
  const latest = new Date(at.getTime() + cutoffHours * HOUR_MS);
  const changed = await tx
    .update(booking)
    .set({ cancelledAt: at, cancelledBy: 'teacher', cancelReason: reason })
    .where(
      and(
        eq(booking.id, id),
        eq(booking.teacherId, teacherId),
        isNull(booking.cancelledAt),
        isNull(booking.holdExpiresAt),
        isNull(booking.answerBy),
        or(isNull(booking.start), gt(booking.start, latest)),
      ),
    )
    .returning({ id: booking.id });
  if (changed.length === 0) return null;
  const row = await reread(tx, id);
  await cancelledByTeacher(tx, row, c);
  return row;
}

/** How many expired requests one transaction of the sweep ends. */
const EXPIRE_BATCH = 100;

/**
 * Ends the requests whose answer_by is at or before `at` and still unanswered (all, or the one
 * of a slot being booked: `slot`), in `tx`: cancelled_at = their deadline, cancelled_by
 * 'expired', and each learner's e-mail queued. Rows another transaction holds are skipped (it
 * is answering or expiring them). Returns how many it ended, at most EXPIRE_BATCH.
 */
export async function expireRequests(tx: Db, c: LessonEventContext, at: Date, slot?: { teacherId: string; start: Date }): Promise<number> {
  const inSlot = slot ? sql`and teacher_id = ${slot.teacherId} and start = ${slot.start.toISOString()}::timestamptz` : sql``;
  const ids = await rowsOf<{ id: string }>(
    tx,
    sql`update ${booking} set cancelled_at = answer_by, cancelled_by = 'expired'
        where id in (
          select id from ${booking}
          where answer_by <= ${at.toISOString()}::timestamptz and cancelled_at is null and hold_expires_at is null ${inSlot}
          order by answer_by limit ${EXPIRE_BATCH} for update skip locked)
        returning id`,
  );
  if (ids.length === 0) return 0;
  const rows = await selectBookings(tx).where(inArray(booking.id, ids.map((r) => r.id)));
  for (const row of rows) await requestExpired(tx, toBookingRow(row), c);
  return ids.length;
}

/** The sweep's part for requests (every server runs it; safe on several): ends every expired request, batch by batch. */
export async function sweepRequests(db: Database, c: LessonEventContext, at: number): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await db.orm.transaction((tx) => expireRequests(tx, c, new Date(at)));
    total += n;
    if (n < EXPIRE_BATCH) return total;
  }
}
