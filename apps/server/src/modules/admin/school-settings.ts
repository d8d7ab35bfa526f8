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
  const [{ schedule, email, cancelCutoffHours }, closureRows] = await Promise.all([
    readSchoolSettings(db, defaults),
    db
      .select({ id: schoolClosure.id, startsOn: schoolClosure.startsOn, endsOn: schoolClosure.endsOn, reason: schoolClosure.reason })
      .from(schoolClosure)
      .where(gte(schoolClosure.endsOn, over))
      .orderBy(asc(schoolClosure.startsOn), asc(schoolClosure.id)),
  ]);
  return { schedule, email, cancelCutoffHours, closures: closureRows, closed: closureRows.map((c) => closureInterval(c, schedule.timeZone)) };
}

/** The school's hours, zone and contact e-mail (no closures): one statement. */
export async function readSchoolSettings(db: Db, defaults: SchoolDefaults): Promise<Pick<School, 'schedule' | 'email' | 'cancelCutoffHours'>> {
  const [row] = await db.select().from(schoolSettings).where(eq(schoolSettings.id, 1));
  return {
    schedule: { timeZone: row?.timeZone ?? defaults.schedule.timeZone, hours: (row?.weeklyHours as WeeklyHours | null | undefined) ?? defaults.schedule.hours },
    email: row ? (row.contactEmail ?? undefined) : defaults.email,
    cancelCutoffHours: row?.cancelCutoffHours ?? DEFAULT_CANCEL_CUTOFF_HOURS,
  };
}

/**
 * What the product reads the school through (decision 119): every API request, booking and
 * e-mail reads the database (`read`, `settings`: one statement each, and in the caller's
 * transaction when it has one), so a console change applies at the next request on every
 * server. Only the pages' footer, which the HTML cache serves without a query, reads the
 * contact e-mail at most once per `pageMaxAgeMs` per server (`contactEmail`): another
 * server's page shows a change within that; this server's (`changed`) at once.
 */
export interface SchoolSource {
  /** the school now, closures included, read from `db` (default the app's; inside a transaction, pass it) */
  read(db?: Db): Promise<School>;
  /** hours, zone and e-mail only (one statement) */
  settings(db?: Db): Promise<Pick<School, 'schedule' | 'email' | 'cancelCutoffHours'>>;
  /** the contact e-mail for the pages, at most `pageMaxAgeMs` old */
  contactEmail(): Promise<string | null>;
  /** the settings were written here: the next contactEmail() reads them */
  changed(): void;
}

export function createSchoolSource(db: Db, defaults: SchoolDefaults, now: () => number, { pageMaxAgeMs = 1000 } = {}): SchoolSource {
  let memo: { until: number; email: Promise<string | null> } | null = null;
  /** the e-mail as last read: what the pages keep showing while the database does not answer */
  let last: string | null = defaults.email ?? null;
  return {
    read: (from = db) => readSchool(from, defaults, { now: now() }),
    settings: (from = db) => readSchoolSettings(from, defaults),
    contactEmail() {
      const at = performance.now();
      if (!memo || at >= memo.until) {
        const current = { until: at + pageMaxAgeMs, email: Promise.resolve(last) };
        current.email = readSchoolSettings(db, defaults).then(
          ({ email }) => (last = email ?? null),
          () => {
            if (memo === current) memo = null;
            return last;
          },
        );
        memo = current;
      }
      return memo.email;
    },
    changed() {
      memo = null;
    },
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

