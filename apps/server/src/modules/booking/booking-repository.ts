import type { CancelledBy } from '@learnlingo/contract';
import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { pgErrorCode, type Database, type Db } from '../../db/client.js';
import { booking, teacher, teacherAvailability, user } from '../../db/schema.js';
import { isWeeklyHours, type Schedule } from './schedule.js';

export interface TeacherForBooking {
  id: string;
  name: string;
  surname: string;
  avatarUrl: string | null;
  languages: string[];
  /** hidden or a draft (decision 111): not bookable */
  hidden?: boolean;
  /** the teacher's own hours, or null: the school's */
  schedule: Schedule | null;
}

export interface BookingRow {
  id: string;
  userId: string | null;
  reason: string;
  fullName: string;
  email: string;
  language: string | null;
  start: Date | null;
  createdAt: Date;
  cancelledAt: Date | null;
  /** a hold (decision 102): waits for its e-mail link until then; null: a real lesson */
  holdExpiresAt: Date | null;
  learnerTimeZone: string | null;
  /** no-shows (decision 112) */
  learnerAbsentAt?: Date | null;
  teacherAbsentAt?: Date | null;
  /** a request (decision 117): the teacher answers by then; null once accepted and for instant lessons */
  answerBy?: Date | null;
  acceptedAt?: Date | null;
  cancelledBy?: CancelledBy | null;
  cancelReason?: string | null;
  teacher: Omit<TeacherForBooking, 'languages'>;
}

export interface NewBooking {
  id: string;
  teacherId: string;
  userId: string | null;
  reason: string;
  fullName: string;
  email: string;
  phone: string;
  start: Date;
  language: string | null;
  tokenHash: string;
  holdExpiresAt: Date | null;
  learnerTimeZone: string | null;
  /** set for a request (decision 117); a visitor's request gets it when its e-mail link is used */
  answerBy?: Date | null;
}

/** The unique index that lets a slot be booked once (see schema.ts). */
export const isSlotTaken = (error: unknown) => {
  if (pgErrorCode(error) !== '23505') return false;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const c = current as { constraint_name?: unknown; constraint?: unknown; cause?: unknown };
    if (c.constraint_name === 'booking_slot_taken_idx' || c.constraint === 'booking_slot_taken_idx') return true;
    current = c.cause;
  }
  return false;
};

const schedule = (timeZone: string | null, hours: unknown): Schedule | null =>
  timeZone !== null && isWeeklyHours(hours) ? { timeZone, hours } : null;

/** A booking's columns with its teacher's, as BookingRow needs them (the console's list adds its own). */
export const bookingColumns = {
  id: booking.id,
  userId: booking.userId,
  reason: booking.reason,
  fullName: booking.fullName,
  email: booking.email,
  language: booking.language,
  start: booking.start,
  createdAt: booking.createdAt,
  cancelledAt: booking.cancelledAt,
  holdExpiresAt: booking.holdExpiresAt,
  learnerTimeZone: booking.learnerTimeZone,
  learnerAbsentAt: booking.learnerAbsentAt,
  teacherAbsentAt: booking.teacherAbsentAt,
  answerBy: booking.answerBy,
  acceptedAt: booking.acceptedAt,
  cancelledBy: booking.cancelledBy,
  cancelReason: booking.cancelReason,
  teacherId: teacher.id,
  name: teacher.name,
  surname: teacher.surname,
  avatarUrl: teacher.avatarUrl,
  timeZone: teacherAvailability.timeZone,
  weeklyHours: teacherAvailability.weeklyHours,
};

export const selectBookings = (orm: Db) =>
  orm
    .select(bookingColumns)
    .from(booking)
    .innerJoin(teacher, eq(teacher.id, booking.teacherId))
    .leftJoin(teacherAvailability, eq(teacherAvailability.teacherId, booking.teacherId));

type Selected = Awaited<ReturnType<typeof selectBookings>>[number];

export function toBookingRow(r: Selected): BookingRow {
  return {
    id: r.id,
    userId: r.userId,
    reason: r.reason,
    fullName: r.fullName,
    email: r.email,
    language: r.language,
    start: r.start,
    createdAt: r.createdAt,
    cancelledAt: r.cancelledAt,
    holdExpiresAt: r.holdExpiresAt,
    learnerTimeZone: r.learnerTimeZone,
    learnerAbsentAt: r.learnerAbsentAt,
    teacherAbsentAt: r.teacherAbsentAt,
    answerBy: r.answerBy,
    acceptedAt: r.acceptedAt,
    cancelledBy: r.cancelledBy,
    cancelReason: r.cancelReason,
    teacher: { id: r.teacherId, name: r.name, surname: r.surname, avatarUrl: r.avatarUrl, schedule: schedule(r.timeZone, r.weeklyHours) },
  };
}

export function createBookingRepository(db: Database) {
  return {
    /** null when the teacher does not exist */
    async teacher(teacherId: string): Promise<TeacherForBooking | null> {
      const [row] = await db.orm
        .select({
          id: teacher.id,
          name: teacher.name,
          surname: teacher.surname,
          avatarUrl: teacher.avatarUrl,
          languages: teacher.languages,
          hidden: teacher.hidden,
          timeZone: teacherAvailability.timeZone,
          weeklyHours: teacherAvailability.weeklyHours,
        })
        .from(teacher)
        .leftJoin(teacherAvailability, eq(teacherAvailability.teacherId, teacher.id))
        .where(eq(teacher.id, teacherId));
      if (!row) return null;
      const { timeZone, weeklyHours, ...rest } = row;
      return { ...rest, schedule: schedule(timeZone, weeklyHours) };
    },

    /** starts (ms) of the teacher's lessons and requests that are not cancelled nor expired at `at`, in [from, to) */
    async bookedStarts(teacherId: string, from: Date, to: Date, at: Date): Promise<Set<number>> {
      const rows = await db.orm
        .select({ start: booking.start })
        .from(booking)
        .where(
          and(
            eq(booking.teacherId, teacherId),
            isNull(booking.cancelledAt),
            or(isNull(booking.holdExpiresAt), gt(booking.holdExpiresAt, at)),
            // a request not answered by its deadline holds nothing (decision 117), swept or not yet
            or(isNull(booking.answerBy), gt(booking.answerBy, at)),
            gte(booking.start, from),
            lt(booking.start, to),
          ),
        );
      return new Set(rows.flatMap((r) => (r.start ? [r.start.getTime()] : [])));
    },

    /** Whether the user's e-mail address is confirmed (better-auth's user.email_verified). */
    async emailVerified(userId: string): Promise<boolean> {
      const [row] = await db.orm.select({ verified: user.emailVerified }).from(user).where(eq(user.id, userId));
      return row?.verified === true;
    },

    /**
     * Lets go of a hold on this slot whose time is up (at or before `at`), in `tx` before the
     * insert: it leaves the one-lesson-per-slot index as a cancelled lesson does (cancelled_at
     * = its expiry, which is how it stays told apart from a learner's cancel).
     */
    async releaseExpiredHold(tx: Db, teacherId: string, start: Date, at: Date): Promise<void> {
      await tx
        .update(booking)
        .set({ cancelledAt: booking.holdExpiresAt })
        .where(
          and(
            eq(booking.teacherId, teacherId),
            eq(booking.start, start),
            isNull(booking.cancelledAt),
            isNotNull(booking.holdExpiresAt),
            lte(booking.holdExpiresAt, at),
          ),
        );
    },

    /**
     * Makes the hold behind `tokenHash` a lesson if it is still held at `at`, in one statement;
     * false if not. A hold of a request (answer_by set) becomes a request that waits for the
     * teacher until `answerBy` (from now on: decision 117).
     */
    async confirm(tx: Db, tokenHash: string, at: Date, answerBy: Date | null): Promise<boolean> {
      const changed = await tx
        .update(booking)
        .set({ holdExpiresAt: null, ...(answerBy ? { answerBy } : {}) })
        .where(and(eq(booking.tokenHash, tokenHash), isNull(booking.cancelledAt), gt(booking.holdExpiresAt, at)))
        .returning({ id: booking.id });
      return changed.length > 0;
    },

    /** Deletes holds that expired before `before` (never confirmed: nothing of them is kept). Returns how many. */
    async deleteExpiredHolds(before: Date): Promise<number> {
      const deleted = await db.orm
        .delete(booking)
        .where(and(isNotNull(booking.holdExpiresAt), lt(booking.holdExpiresAt, before)))
        .returning({ id: booking.id });
      return deleted.length;
    },

    /** Inserts in `tx`; a unique violation of booking_slot_taken_idx (isSlotTaken) means the slot is gone. */
    async insert(tx: Db, values: NewBooking): Promise<BookingRow> {
      await tx.insert(booking).values(values);
      const [row] = await selectBookings(tx).where(eq(booking.id, values.id));
      if (!row) throw new Error('the booking just inserted is not there');
      return toBookingRow(row);
    },

    /** The booking with this id if `userId` owns it. */
    async findOwned(id: string, userId: string): Promise<BookingRow | null> {
      const [row] = await selectBookings(db.orm).where(and(eq(booking.id, id), eq(booking.userId, userId)));
      return row ? toBookingRow(row) : null;
    },

    /** The booking with this id, whoever's (the caller has already checked it is theirs). */
    async findById(id: string): Promise<BookingRow | null> {
      const [row] = await selectBookings(db.orm).where(eq(booking.id, id));
      return row ? toBookingRow(row) : null;
    },

    async findByTokenHash(tokenHash: string): Promise<BookingRow | null> {
      const [row] = await selectBookings(db.orm).where(eq(booking.tokenHash, tokenHash));
      return row ? toBookingRow(row) : null;
    },

    /** The user's bookings: the latest starts first (unscheduled ones last), at most 500. */
    async listOwned(userId: string): Promise<BookingRow[]> {
      const rows = await selectBookings(db.orm)
        .where(eq(booking.userId, userId))
        .orderBy(sql`${booking.start} desc nulls last`, desc(booking.createdAt), asc(booking.id))
        .limit(500);
      return rows.map(toBookingRow);
    },

    /**
     * The learner's cancel, in one statement: cancels the booking if it is not cancelled yet and
     * either starts after `latestStart` (the cut-off; a lesson), or is a hold or a request still
     * waiting at `at` that has not started (withdrawn at any time before its answer), or has no
     * start. Says what it cancelled as of that statement: a 'hold' (never announced), a 'request'
     * or a 'lesson' — a hold read earlier may have been confirmed, a request accepted since. null
     * when nothing changed (the caller knows why).
     */
    async cancel(tx: Db, id: string, at: Date, latestStart: Date): Promise<'hold' | 'request' | 'lesson' | null> {
      const now = at.toISOString();
      const changed = await tx
        .update(booking)
        .set({ cancelledAt: at, cancelledBy: 'learner' })
        .where(
          and(
            eq(booking.id, id),
            isNull(booking.cancelledAt),
            sql`(${booking.answerBy} is null or ${booking.answerBy} > ${now}::timestamptz or ${booking.holdExpiresAt} is not null)`,
            sql`(${booking.start} is null or ${booking.start} > ${latestStart.toISOString()}::timestamptz
                 or ((${booking.holdExpiresAt} > ${now}::timestamptz or ${booking.answerBy} > ${now}::timestamptz) and ${booking.start} > ${now}::timestamptz))`,
          ),
        )
        .returning({ holdExpiresAt: booking.holdExpiresAt, answerBy: booking.answerBy });
      const [row] = changed;
      return row ? (row.holdExpiresAt ? 'hold' : row.answerBy ? 'request' : 'lesson') : null;
    },
  };
}

export type BookingRepository = ReturnType<typeof createBookingRepository>;
