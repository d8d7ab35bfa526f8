import { randomUUID } from 'node:crypto';
import { LESSON_MINUTES, type BookingMode } from '@learnlingo/contract';
import { and, count, eq, gte, sql } from 'drizzle-orm';
import { rowsOf } from '../../catalogue/index.js';
import type { Db } from '../../db/client.js';
import { booking, teacherAvailability, teacherExtraHours, teacherTimeOff } from '../../db/schema.js';
import { DEFAULT_BOOKING_RULES, isWeeklyHours, type Availability, type Schedule, type WeeklyHours } from '../booking/schedule.js';

/*
 * A teacher's own hours in the database (issue 25, decision 116): the zone, weekly hours,
 * notice and horizon in teacher_availability (no row: the school's hours and the default
 * rules), time off and extra hours in their own tables. Read per request by the slots, the
 * booking check and the preview, so a change shows at once on every server.
 */

const DAY_MS = 86_400_000;

/** The first calendar day (UTC) whose entries can still matter at `now`: two days back is over in every zone. */
export const firstLiveDay = (now: number) => new Date(now - 2 * DAY_MS).toISOString().slice(0, 10);

export interface TimeOffRow {
  id: string;
  startsOn: string;
  endsOn: string;
  reason: string;
}

export interface ExtraHoursRow {
  id: string;
  on: string;
  fromHour: number;
  toHour: number;
}

export interface TeacherAvailabilityRecord extends Availability {
  /** false: no row of their own; the schedule is the school's */
  ownHours: boolean;
  /** 'instant' (also without a row of their own) or 'request' (decision 117) */
  bookingMode: BookingMode;
  timeOff: TimeOffRow[];
  extraHours: ExtraHoursRow[];
}

interface AvailabilityRow {
  timeZone: string | null;
  weeklyHours: unknown;
  noticeHours: number | null;
  horizonDays: number | null;
  bookingMode: BookingMode | null;
  timeOff: unknown;
  extraHours: unknown;
}

/** A json column: parsed by both drivers, but a string if a driver ever leaves it as text. */
const asJson = <T>(value: unknown): T | undefined => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T | undefined));

const timeOffColumns = { id: teacherTimeOff.id, startsOn: teacherTimeOff.startsOn, endsOn: teacherTimeOff.endsOn, reason: teacherTimeOff.reason };
const extraColumns = { id: teacherExtraHours.id, on: teacherExtraHours.onDate, fromHour: teacherExtraHours.fromHour, toHour: teacherExtraHours.toHour };

/**
 * Everything that decides a teacher's starts at `now`, with the entries not over yet: their
 * own schedule and rules, or the school's schedule (`school`) and the default rules.
 */
export async function readTeacherAvailability(db: Db, teacherId: string, school: Schedule, now: number): Promise<TeacherAvailabilityRecord> {
  const live = firstLiveDay(now);
  // one statement (the slots and the booking check run it per request): the row, and the entries as JSON
  const [row] = await rowsOf<AvailabilityRow>(
    db,
    sql`
    select a.time_zone as "timeZone", a.weekly_hours as "weeklyHours", a.notice_hours as "noticeHours", a.horizon_days as "horizonDays", a.booking_mode as "bookingMode",
      (select coalesce(json_agg(json_build_object('id', o.id, 'startsOn', o.starts_on, 'endsOn', o.ends_on, 'reason', o.reason) order by o.starts_on, o.id), '[]'::json)
         from ${teacherTimeOff} o where o.teacher_id = ${teacherId} and o.ends_on >= ${live}::date) as "timeOff",
      (select coalesce(json_agg(json_build_object('id', x.id, 'on', x.on_date, 'fromHour', x.from_hour, 'toHour', x.to_hour) order by x.on_date, x.from_hour, x.id), '[]'::json)
         from ${teacherExtraHours} x where x.teacher_id = ${teacherId} and x.on_date >= ${live}::date) as "extraHours"
    from (select 1) as one left join ${teacherAvailability} a on a.teacher_id = ${teacherId}`,
  );
  const timeOff = asJson<TimeOffRow[]>(row?.timeOff) ?? [];
  const extraHours = asJson<ExtraHoursRow[]>(row?.extraHours) ?? [];
  const own = row && row.timeZone !== null ? { ...row, weeklyHours: asJson<unknown>(row.weeklyHours) } : undefined;
  const ownHours = own !== undefined && own.timeZone !== null && isWeeklyHours(own.weeklyHours);
  return {
    ownHours,
    schedule: ownHours ? { timeZone: own.timeZone!, hours: own.weeklyHours as WeeklyHours } : school,
    noticeHours: own?.noticeHours ?? DEFAULT_BOOKING_RULES.noticeHours,
    horizonDays: own?.horizonDays ?? DEFAULT_BOOKING_RULES.horizonDays,
    bookingMode: row?.bookingMode === 'request' ? 'request' : 'instant',
    timeOff,
    extraHours,
  };
}

export interface AvailabilityValues {
  timeZone: string;
  weeklyHours: WeeklyHours;
  noticeHours: number;
  horizonDays: number;
  bookingMode: BookingMode;
}

export async function writeTeacherAvailability(tx: Db, teacherId: string, values: AvailabilityValues): Promise<void> {
  await tx
    .insert(teacherAvailability)
    .values({ teacherId, ...values })
    .onConflictDoUpdate({ target: teacherAvailability.teacherId, set: values });
}

/** How many of the teacher's time-off entries and extra hours are not over yet (for the caps). */
export async function liveEntryCounts(tx: Db, teacherId: string, now: number): Promise<{ timeOff: number; extraHours: number }> {
  const live = firstLiveDay(now);
  const [off] = await tx
    .select({ n: count() })
    .from(teacherTimeOff)
    .where(and(eq(teacherTimeOff.teacherId, teacherId), gte(teacherTimeOff.endsOn, live)));
  const [extra] = await tx
    .select({ n: count() })
    .from(teacherExtraHours)
    .where(and(eq(teacherExtraHours.teacherId, teacherId), gte(teacherExtraHours.onDate, live)));
  return { timeOff: off?.n ?? 0, extraHours: extra?.n ?? 0 };
}

export async function addTimeOff(tx: Db, teacherId: string, values: Omit<TimeOffRow, 'id'>): Promise<TimeOffRow> {
  const [row] = await tx
    .insert(teacherTimeOff)
    .values({ id: randomUUID(), teacherId, ...values })
    .returning(timeOffColumns);
  return row!;
}

/** Removes one of the teacher's own entries; null when they have none with this id. */
export async function removeTimeOff(tx: Db, teacherId: string, id: string): Promise<TimeOffRow | null> {
  const [row] = await tx
    .delete(teacherTimeOff)
    .where(and(eq(teacherTimeOff.id, id), eq(teacherTimeOff.teacherId, teacherId)))
    .returning(timeOffColumns);
  return row ?? null;
}

export async function addExtraHours(tx: Db, teacherId: string, values: Omit<ExtraHoursRow, 'id'>): Promise<ExtraHoursRow> {
  const [row] = await tx
    .insert(teacherExtraHours)
    .values({ id: randomUUID(), teacherId, onDate: values.on, fromHour: values.fromHour, toHour: values.toHour })
    .returning(extraColumns);
  return row!;
}

export async function removeExtraHours(tx: Db, teacherId: string, id: string): Promise<ExtraHoursRow | null> {
  const [row] = await tx
    .delete(teacherExtraHours)
    .where(and(eq(teacherExtraHours.id, id), eq(teacherExtraHours.teacherId, teacherId)))
    .returning(extraColumns);
  return row ?? null;
}

// ---------------------------------------------------------------- the booking transaction's overlap check

const LESSON_INTERVAL = `${LESSON_MINUTES} minutes`;

/**
 * Makes the bookings of one teacher wait for each other, in their transactions (released at
 * commit or rollback), before the overlap check: two bookings of different but overlapping
 * starts cannot both miss each other. PGlite runs one transaction at a time anyway.
 */
export async function lockTeacherLessons(tx: Db, teacherId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`lessons:${teacherId}`}, 0))`);
}

/**
 * Whether a live lesson, hold or request (not expired at `at`) of the teacher overlaps a lesson at
 * `start` without starting exactly then (an equal start is the unique index's to refuse:
 * 409 SLOT_TAKEN). Possible only after a change of zone or hours (decision 116).
 */
export async function overlapsOtherLesson(tx: Db, teacherId: string, start: Date, at: Date): Promise<boolean> {
  const s = start.toISOString();
  const rows = await rowsOf<{ one: number }>(
    tx,
    sql`select 1 as one from ${booking}
        where ${booking.teacherId} = ${teacherId} and ${booking.cancelledAt} is null
          and (${booking.holdExpiresAt} is null or ${booking.holdExpiresAt} > ${at.toISOString()}::timestamptz)
          and (${booking.answerBy} is null or ${booking.answerBy} > ${at.toISOString()}::timestamptz)
          and ${booking.start} > ${s}::timestamptz - ${LESSON_INTERVAL}::interval
          and ${booking.start} < ${s}::timestamptz + ${LESSON_INTERVAL}::interval
          and ${booking.start} <> ${s}::timestamptz
        limit 1`,
  );
  return rows.length > 0;
}
