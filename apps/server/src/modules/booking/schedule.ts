import { BOOK_MAX_DAYS_AHEAD, BOOK_MIN_HOURS_AHEAD, LESSON_MINUTES } from '@learnlingo/contract';

/*
 * Lesson times. A teacher's weekly hours are wall-clock hours in their own IANA zone, so
 * every start is computed in that zone with the runtime's time-zone database (Intl), never
 * with a fixed offset: 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer.
 * See docs/decisions/060-lesson-times-and-one-booking-per-slot.md.
 */

/** 7 lists, Monday first, of [fromHour, toHour) pairs (whole hours, 0–24) in the teacher's zone. */
export type WeeklyHours = number[][][];

export interface Schedule {
  timeZone: string;
  hours: WeeklyHours;
}

export const LESSON_MS = LESSON_MINUTES * 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** true for a time-zone name the runtime knows (IANA names such as Europe/Kyiv, and UTC) */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock time in `timeZone` at an instant (ms since the epoch). */
export function wallTime(instant: number, timeZone: string): WallTime {
  const out: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return { year: out.year!, month: out.month!, day: out.day!, hour: out.hour!, minute: out.minute!, second: out.second! };
}

/*
 * Offsets by zone and instant. A zone's offset at an instant never changes (for the runtime's
 * zone data), and the instants asked for are whole hours of the same few weeks for every
 * request, so nearly every lookup is a hit; Intl's formatToParts costs tens of µs a call.
 */
const OFFSET_CACHE_MAX = 50_000;
const offsetCache = new Map<string, number>();

/** How far `timeZone`'s wall clock is ahead of UTC at an instant, in ms. */
export function offsetAt(instant: number, timeZone: string): number {
  const key = `${timeZone} ${instant}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const w = wallTime(instant, timeZone);
  const offset = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(instant / 1000) * 1000;
  if (offsetCache.size >= OFFSET_CACHE_MAX) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/**
 * The instant when `timeZone`'s clocks show that date at `hour`:00, or null when that wall
 * time does not exist (skipped by a daylight-saving change). When it exists twice (clocks
 * put back), the earlier instant.
 */
export function zonedHourToInstant(year: number, month: number, day: number, hour: number, timeZone: string): number | null {
  const asUtc = Date.UTC(year, month - 1, day, hour);
  // The zone's offset a day either side covers both offsets around any change in between.
  const candidates = [...new Set([asUtc - offsetAt(asUtc - DAY_MS, timeZone), asUtc - offsetAt(asUtc + DAY_MS, timeZone), asUtc - offsetAt(asUtc, timeZone)])];
  const matching = candidates.filter((instant) => {
    const w = wallTime(instant, timeZone);
    return w.year === year && w.month === month && w.day === day && w.hour === hour && w.minute === 0;
  });
  return matching.length > 0 ? Math.min(...matching) : null;
}

/** Monday = 0 … Sunday = 6 for a calendar date. */
function weekday(year: number, month: number, day: number): number {
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

/**
 * Every lesson start of a schedule in [from, to) (ms), ascending: each hour inside the
 * weekly ranges of each calendar day in the teacher's zone whose lesson fits the range.
 */
export function lessonStarts({ timeZone, hours }: Schedule, from: number, to: number): number[] {
  if (!(to > from)) return [];
  const starts: number[] = [];
  const first = wallTime(from - DAY_MS, timeZone);
  const days = Math.ceil((to - from) / DAY_MS) + 2;
  for (let i = 0; i <= days; i += 1) {
    const date = new Date(Date.UTC(first.year, first.month - 1, first.day + i));
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    const ranges = hours[weekday(y, m, d)] ?? [];
    if (ranges.length === 0) continue;
    // Every instant of this local day lies within these two (zones are UTC-12 … UTC+14).
    // The same offset at both ends — every day but those of a clock change — means it holds
    // all day: each hour is then plain arithmetic, with no time-zone lookup per hour.
    const midnight = Date.UTC(y, m - 1, d);
    const offset = offsetAt(midnight - 14 * HOUR_MS, timeZone);
    const steady = offset === offsetAt(midnight + DAY_MS + 12 * HOUR_MS, timeZone);
    for (const [fromHour, toHour] of ranges) {
      for (let hour = fromHour!; hour + LESSON_MINUTES / 60 <= toHour!; hour += 1) {
        const instant = steady ? midnight + hour * HOUR_MS - offset : zonedHourToInstant(y, m, d, hour, timeZone);
        if (instant !== null && instant >= from && instant < to) starts.push(instant);
      }
    }
  }
  return [...new Set(starts)].sort((a, b) => a - b);
}

/** A teacher's booking rules: the least notice (hours) and how far ahead learners may book (days). */
export interface BookingRules {
  noticeHours: number;
  horizonDays: number;
}

/** The rules of a teacher who set none: 12 hours' notice, 14 days ahead. */
export const DEFAULT_BOOKING_RULES: BookingRules = { noticeHours: BOOK_MIN_HOURS_AHEAD, horizonDays: BOOK_MAX_DAYS_AHEAD };

/**
 * When lessons may be booked at `now`: from the notice ahead to the horizon ahead, both
 * inclusive (default 12 hours to 14 days).
 */
export function bookableWindow(now: number, rules: BookingRules = DEFAULT_BOOKING_RULES): { from: number; to: number } {
  return { from: now + rules.noticeHours * HOUR_MS, to: now + rules.horizonDays * DAY_MS + 1 };
}

// ---------------------------------------------------------------- SCHOOL_HOURS

/**
 * Parses weekly hours written as `Mon-Fri 09:00-18:00; Sat 10:00-13:00,14:00-16:00` (the
 * console's forms use the same parser, so it lives in the contract). Returns an Error that
 * says what is wrong.
 */
export { parseWeeklyHours } from '@learnlingo/contract';

/** true for a well-formed WeeklyHours value (as stored) */
export function isWeeklyHours(value: unknown): value is WeeklyHours {
  return (
    Array.isArray(value) &&
    value.length === 7 &&
    value.every(
      (day) =>
        Array.isArray(day) &&
        day.length <= 24 &&
        day.every(
          (range) =>
            Array.isArray(range) &&
            range.length === 2 &&
            Number.isInteger(range[0]) &&
            Number.isInteger(range[1]) &&
            range[0] >= 0 &&
            range[0] < range[1] &&
            range[1] <= 24,
        ),
    )
  );
}

// ---------------------------------------------------------------- school closures

/** A closure as the school set it: calendar days (YYYY-MM-DD) in the school's zone, both included. */
export interface ClosureDays {
  startsOn: string;
  endsOn: string;
}

/** [from, to) in ms */
export type Interval = [from: number, to: number];

/** The first instant of a calendar day in `timeZone` (its midnight, or the first hour that exists). */
function dayStart(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  for (let hour = 0; hour < 24; hour += 1) {
    const instant = zonedHourToInstant(y, m, d, hour, timeZone);
    if (instant !== null) return instant;
  }
  return Date.UTC(y, m - 1, d);
}

/** The instants a closure covers: from its first day's start to the start of the day after its last, in the school's zone. */
export function closureInterval({ startsOn, endsOn }: ClosureDays, timeZone: string): Interval {
  const after = new Date(`${endsOn}T00:00:00Z`);
  after.setUTCDate(after.getUTCDate() + 1);
  return [dayStart(startsOn, timeZone), dayStart(after.toISOString().slice(0, 10), timeZone)];
}

/** The starts whose lesson overlaps none of the closed intervals. */
export function outsideClosures(starts: number[], closed: readonly Interval[]): number[] {
  if (closed.length === 0) return starts;
  return starts.filter((start) => !closed.some(([from, to]) => start < to && start + LESSON_MS > from));
}

// ---------------------------------------------------------------- a teacher's own hours (issue 25, decision 116)

/** Time off as the teacher set it: calendar days (YYYY-MM-DD) in the teacher's zone, both included. */
export type TimeOffDays = ClosureDays;

/** Extra hours: whole hours [fromHour, toHour) on one calendar day (YYYY-MM-DD) in the teacher's zone. */
export interface ExtraHours {
  on: string;
  fromHour: number;
  toHour: number;
}

/** Everything that decides a teacher's starts, apart from the school's closures and the booked lessons. */
export interface Availability extends BookingRules {
  /** the teacher's own zone and weekly hours, or the school's */
  schedule: Schedule;
  timeOff: readonly TimeOffDays[];
  extraHours: readonly ExtraHours[];
}

/** The starts of extra hours in [from, to), each hour's instant in `timeZone` (an hour skipped by a clock change has none). */
export function extraHourStarts(extra: readonly ExtraHours[], timeZone: string, from: number, to: number): number[] {
  const starts: number[] = [];
  for (const { on, fromHour, toHour } of extra) {
    const [y, m, d] = on.split('-').map(Number) as [number, number, number];
    for (let hour = fromHour; hour + LESSON_MINUTES / 60 <= toHour; hour += 1) {
      const instant = zonedHourToInstant(y, m, d, hour, timeZone);
      if (instant !== null && instant >= from && instant < to) starts.push(instant);
    }
  }
  return starts;
}

/** The starts whose lesson overlaps none of the `booked` lessons (starts; every lesson is LESSON_MS long). */
export function outsideBooked(starts: number[], booked: Iterable<number>): number[] {
  const taken = [...booked];
  if (taken.length === 0) return starts;
  return starts.filter((start) => !taken.some((b) => start < b + LESSON_MS && b < start + LESSON_MS));
}

/**
 * The starts a teacher offers in [from, to): the weekly hours' starts outside their time off,
 * plus their extra hours (an explicit "I teach that day after all", even inside time off), then
 * without the school's closures (they apply on top of everything) and without any start whose
 * lesson overlaps a booked one (after a change of zone or hours, an old lesson need not sit on
 * a new start). The window (notice, horizon) is the caller's: pass it as [from, to).
 */
export function offeredStarts(availability: Availability, from: number, to: number, closed: readonly Interval[], booked: Iterable<number> = []): number[] {
  const { schedule, timeOff, extraHours } = availability;
  const off = timeOff.map((days) => closureInterval(days, schedule.timeZone));
  const weekly = outsideClosures(lessonStarts(schedule, from, to), off);
  const extra = extraHourStarts(extraHours, schedule.timeZone, from, to);
  const all = extra.length === 0 ? weekly : [...new Set([...weekly, ...extra])].sort((a, b) => a - b);
  return outsideBooked(outsideClosures(all, closed), booked);
}
