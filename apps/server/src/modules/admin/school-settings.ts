import { randomUUID } from 'node:crypto';
import { formatWeeklyHours, type Closure } from '@learnlingo/contract';
import { asc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { schoolClosure, schoolSettings } from '../../db/schema.js';
import { DEFAULT_CANCEL_CUTOFF_HOURS } from '../booking/lesson-state.js';
import { closureInterval, type Interval, type Schedule, type WeeklyHours } from '../booking/schedule.js';

/*
 * The school's settings (issue 24): default weekly hours and time zone, contact e-mail and
 * closures, kept in the database so that every server reads the same ones and a change
 * removes slots at once. A value the console never set is the environment's
 * (SCHOOL_TIME_ZONE, SCHOOL_HOURS, SCHOOL_EMAIL): a fresh database follows the environment.
 */

export interface SchoolDefaults {
  schedule: Schedule;
  email: string | undefined;
}

export interface School {
  schedule: Schedule;
  email: string | undefined;
  /** learners and teachers may cancel up to this many hours before the start (decision 117; none set: 12) */
  cancelCutoffHours: number;
  closures: Closure[];
  /** the closures' instants in the school's zone (slots overlapping one are not offered nor booked) */
  closed: Interval[];
}

/** The school as it is now: the console's settings over the environment's, with the closures not yet over. */
export async function readSchool(db: Db, defaults: SchoolDefaults, { now = Date.now() } = {}): Promise<School> {
  // a closure two days past is over in every zone
  const over = new Date(now - 2 * 86_400_000).toISOString().slice(0, 10);
  const [settingsRows, closureRows] = await Promise.all([
    db.select().from(schoolSettings).where(eq(schoolSettings.id, 1)),
    db
      .select({ id: schoolClosure.id, startsOn: schoolClosure.startsOn, endsOn: schoolClosure.endsOn, reason: schoolClosure.reason })
      .from(schoolClosure)
      .where(gte(schoolClosure.endsOn, over))
      .orderBy(asc(schoolClosure.startsOn), asc(schoolClosure.id)),
  ]);
  const row = settingsRows[0];
  const schedule: Schedule = {
    timeZone: row?.timeZone ?? defaults.schedule.timeZone,
    hours: (row?.weeklyHours as WeeklyHours | null | undefined) ?? defaults.schedule.hours,
  };
  return {
    schedule,
    email: row ? (row.contactEmail ?? undefined) : defaults.email,
    cancelCutoffHours: row?.cancelCutoffHours ?? DEFAULT_CANCEL_CUTOFF_HOURS,
    closures: closureRows,
    closed: closureRows.map((c) => closureInterval(c, schedule.timeZone)),
  };
}

/** The settings as the console's form shows them. */
export function schoolView(school: School) {
  return {
    timeZone: school.schedule.timeZone,
    weeklyHours: formatWeeklyHours(school.schedule.hours),
    contactEmail: school.email ?? null,
    cancelCutoffHours: school.cancelCutoffHours,
    closures: school.closures,
  };
}

/** `cancelCutoffHours` left out: unchanged. */
export async function writeSchoolSettings(
  tx: Db,
  values: { timeZone: string; weeklyHours: WeeklyHours; contactEmail: string | null; cancelCutoffHours?: number | undefined },
): Promise<void> {
  const { cancelCutoffHours, ...rest } = values;
  const set = cancelCutoffHours === undefined ? rest : { ...rest, cancelCutoffHours };
  await tx
    .insert(schoolSettings)
    .values({ id: 1, ...set })
    .onConflictDoUpdate({ target: schoolSettings.id, set: { ...set, updatedAt: sql`now()` } });
}

export async function addClosure(tx: Db, values: { startsOn: string; endsOn: string; reason: string }): Promise<Closure> {
  const [row] = await tx
    .insert(schoolClosure)
    .values({ id: randomUUID(), ...values })
    .returning({ id: schoolClosure.id, startsOn: schoolClosure.startsOn, endsOn: schoolClosure.endsOn, reason: schoolClosure.reason });
  return row!;
}

/** Removes a closure; returns it, or null when there was none. */
export async function removeClosure(tx: Db, id: string): Promise<Closure | null> {
  const [row] = await tx
    .delete(schoolClosure)
    .where(eq(schoolClosure.id, id))
    .returning({ id: schoolClosure.id, startsOn: schoolClosure.startsOn, endsOn: schoolClosure.endsOn, reason: schoolClosure.reason });
  return row ?? null;
}

