import { describe, expect, it } from 'vitest';
import { bookableWindow, closureInterval, DEFAULT_BOOKING_RULES, offeredStarts, wallTime, type Availability, type WeeklyHours } from '../booking/schedule.js';

/*
 * A teacher's starts from their own hours (issue 25, decision 116): weekly hours in their zone,
 * time off, extra hours, closures and booked lessons, across daylight-saving changes, in zones
 * east and west of UTC and one with a 30-minute offset. Pure functions: no clock, no database.
 */

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);
const everyDay = (from: number, to: number): WeeklyHours => Array.from({ length: 7 }, () => [[from, to]]);
const teacher = (timeZone: string, hours: WeeklyHours, more: Partial<Availability> = {}): Availability => ({
  schedule: { timeZone, hours },
  ...DEFAULT_BOOKING_RULES,
  timeOff: [],
  extraHours: [],
  ...more,
});
const starts = (a: Availability, from: string, to: string, closed: [number, number][] = [], booked: number[] = []) =>
  offeredStarts(a, at(from), at(to), closed, booked).map(iso);
/** the wall-clock `YYYY-MM-DD HH:MM` of an instant in a zone */
const wall = (s: string, zone: string) => {
  const w = wallTime(at(s), zone);
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')} ${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
};

describe('weekly hours that start at 13:00 or later, across daylight-saving changes (cal.com #30021)', () => {
  it('New York 13:00–18:00 stays 13:00–18:00 on the spring-forward day: 17:00–21:00Z, not shifted an hour late', () => {
    const a = teacher('America/New_York', everyDay(13, 18));
    const got = starts(a, '2026-03-07T00:00:00Z', '2026-03-10T00:00:00Z');
    expect(got).toEqual([
      // Saturday 7 March, EST (UTC-5)
      '2026-03-07T18:00:00.000Z', '2026-03-07T19:00:00.000Z', '2026-03-07T20:00:00.000Z', '2026-03-07T21:00:00.000Z', '2026-03-07T22:00:00.000Z',
      // Sunday 8 March, the change (EDT, UTC-4)
      '2026-03-08T17:00:00.000Z', '2026-03-08T18:00:00.000Z', '2026-03-08T19:00:00.000Z', '2026-03-08T20:00:00.000Z', '2026-03-08T21:00:00.000Z',
      '2026-03-09T17:00:00.000Z', '2026-03-09T18:00:00.000Z', '2026-03-09T19:00:00.000Z', '2026-03-09T20:00:00.000Z', '2026-03-09T21:00:00.000Z',
    ]);
    // every start is 13:00…17:00 on the teacher's own clock
    expect(new Set(got.map((s) => wall(s, 'America/New_York').slice(11)))).toEqual(new Set(['13:00', '14:00', '15:00', '16:00', '17:00']));
  });

  it('and on the autumn day: 1 November is 18:00–22:00Z (EST), 31 October 17:00–21:00Z (EDT)', () => {
    const got = starts(teacher('America/New_York', everyDay(13, 18)), '2026-10-31T00:00:00Z', '2026-11-02T00:00:00Z');
    expect(got.filter((s) => s.startsWith('2026-10-31'))).toEqual(['17', '18', '19', '20', '21'].map((h) => `2026-10-31T${h}:00:00.000Z`));
    expect(got.filter((s) => s.startsWith('2026-11-01'))).toEqual(['18', '19', '20', '21', '22'].map((h) => `2026-11-01T${h}:00:00.000Z`));
  });

  it('east of UTC: Kyiv 14:00–16:00 is 11:00Z in summer time and 12:00Z from 25 October', () => {
    const got = starts(teacher('Europe/Kyiv', everyDay(14, 16)), '2026-10-24T00:00:00Z', '2026-10-26T00:00:00Z');
    expect(got).toEqual(['2026-10-24T11:00:00.000Z', '2026-10-24T12:00:00.000Z', '2026-10-25T12:00:00.000Z', '2026-10-25T13:00:00.000Z']);
  });

  it("west of UTC, late evening: Los Angeles 22:00–24:00 falls on the next UTC day and follows the spring change", () => {
    const got = starts(teacher('America/Los_Angeles', everyDay(22, 24)), '2026-03-08T00:00:00Z', '2026-03-10T00:00:00Z');
    // Saturday 7 March 22:00 PST = 8 March 06:00Z; Sunday 8 March 22:00 PDT = 9 March 05:00Z
    expect(got).toEqual(['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T05:00:00.000Z', '2026-03-09T06:00:00.000Z']);
  });

  it('a 30-minute offset: Asia/Kolkata 09:00–11:00 is 03:30Z and 04:30Z, all year', () => {
    expect(starts(teacher('Asia/Kolkata', everyDay(9, 11)), '2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z')).toEqual([
      '2026-03-08T03:30:00.000Z',
      '2026-03-08T04:30:00.000Z',
    ]);
  });
});

describe('time off', () => {
  it("covers the teacher's days, which are other days for a learner elsewhere (Tokyo's 24–26 December)", () => {
    const a = teacher('Asia/Tokyo', everyDay(8, 10), { timeOff: [{ startsOn: '2026-12-24', endsOn: '2026-12-26' }] });
    const got = starts(a, '2026-12-22T12:00:00Z', '2026-12-27T12:00:00Z');
    // Tokyo 08:00 is 23:00Z the day before: the off days are 23–25 December 15:00Z…
    expect(closureInterval({ startsOn: '2026-12-24', endsOn: '2026-12-26' }, 'Asia/Tokyo').map(iso)).toEqual(['2026-12-23T15:00:00.000Z', '2026-12-26T15:00:00.000Z']);
    expect(got).toEqual([
      '2026-12-22T23:00:00.000Z', // Tokyo 23 Dec 08:00 (a learner in Los Angeles: 22 Dec 15:00)
      '2026-12-23T00:00:00.000Z',
      '2026-12-26T23:00:00.000Z', // Tokyo 27 Dec 08:00
      '2026-12-27T00:00:00.000Z',
    ]);
    // the first lesson the time off removes is on the learner's 23 December in Los Angeles — a day before it "starts"
    expect(wall('2026-12-23T23:00:00Z', 'America/Los_Angeles')).toBe('2026-12-23 15:00');
  });

  it('west of UTC: a New York evening off on 24 December is 25 December in UTC and Europe', () => {
    const a = teacher('America/New_York', everyDay(20, 22), { timeOff: [{ startsOn: '2026-12-24', endsOn: '2026-12-24' }] });
    expect(starts(a, '2026-12-24T00:00:00Z', '2026-12-27T00:00:00Z')).toEqual([
      '2026-12-24T01:00:00.000Z', // New York 23 Dec 20:00
      '2026-12-24T02:00:00.000Z',
      '2026-12-26T01:00:00.000Z', // New York 25 Dec 20:00
      '2026-12-26T02:00:00.000Z',
    ]);
  });

  it('one entry for a three-week holiday, across the autumn change', () => {
    const a = teacher('Europe/Berlin', everyDay(9, 10), { timeOff: [{ startsOn: '2026-10-12', endsOn: '2026-11-01' }] });
    const got = starts(a, '2026-10-10T00:00:00Z', '2026-11-04T00:00:00Z');
    expect(got).toEqual([
      '2026-10-10T07:00:00.000Z',
      '2026-10-11T07:00:00.000Z',
      // 2 November 09:00 in Berlin is 08:00Z (CET since 25 October)
      '2026-11-02T08:00:00.000Z',
      '2026-11-03T08:00:00.000Z',
    ]);
  });
});

describe('extra hours', () => {
  it('add starts on a day without weekly hours, and inside time off', () => {
    const weekdays: WeeklyHours = [[[9, 10]], [[9, 10]], [[9, 10]], [[9, 10]], [[9, 10]], [], []];
    const a = teacher('Europe/Kyiv', weekdays, {
      timeOff: [{ startsOn: '2026-12-01', endsOn: '2026-12-01' }],
      extraHours: [
        { on: '2026-11-28', fromHour: 14, toHour: 16 }, // a Saturday
        { on: '2026-12-01', fromHour: 18, toHour: 19 }, // a Tuesday off, but an evening after all
      ],
    });
    expect(starts(a, '2026-11-27T00:00:00Z', '2026-12-02T00:00:00Z')).toEqual([
      '2026-11-27T07:00:00.000Z',
      '2026-11-28T12:00:00.000Z',
      '2026-11-28T13:00:00.000Z',
      '2026-11-30T07:00:00.000Z',
      '2026-12-01T16:00:00.000Z',
    ]);
  });

  it('skip the hour a spring change removes and keep an overlap with the weekly hours once', () => {
    const a = teacher('America/New_York', everyDay(3, 4), { extraHours: [{ on: '2026-03-08', fromHour: 1, toHour: 4 }] });
    // 01:00 EST = 06:00Z; 02:00 does not exist; 03:00 EDT = 07:00Z (also a weekly start)
    expect(starts(a, '2026-03-08T00:00:00Z', '2026-03-09T00:00:00Z')).toEqual(['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z']);
  });
});

describe('closures and booked lessons on top', () => {
  it("the school's closures remove every kind of start, extra hours too", () => {
    const a = teacher('UTC', everyDay(9, 11), { extraHours: [{ on: '2026-12-25', fromHour: 15, toHour: 16 }] });
    const closed = closureInterval({ startsOn: '2026-12-25', endsOn: '2026-12-25' }, 'Europe/Kyiv');
    expect(starts(a, '2026-12-24T00:00:00Z', '2026-12-26T00:00:00Z', [closed])).toEqual([
      '2026-12-24T09:00:00.000Z',
      '2026-12-24T10:00:00.000Z',
      // Kyiv's 25 December ends at 22:00Z: the 26th's own hours are not in this window
    ]);
  });

  it('after a change of zone, a start that overlaps a lesson booked before is not offered (Kyiv → Kolkata)', () => {
    const a = teacher('Asia/Kolkata', everyDay(9, 12));
    // booked at 11:00 Kyiv time when the teacher lived there: 09:00Z
    const got = starts(a, '2026-11-30T00:00:00Z', '2026-12-01T00:00:00Z', [], [at('2026-11-30T04:00:00Z')]);
    expect(got).toEqual(['2026-11-30T05:30:00.000Z']);
  });
});

describe('bookableWindow', () => {
  it('runs from the notice to the horizon, both inclusive, with the defaults 12 hours and 14 days', () => {
    const now = at('2026-11-27T10:00:00Z');
    expect(bookableWindow(now)).toEqual({ from: at('2026-11-27T22:00:00Z'), to: at('2026-12-11T10:00:00Z') + 1 });
    expect(bookableWindow(now, { noticeHours: 0, horizonDays: 1 })).toEqual({ from: now, to: at('2026-11-28T10:00:00Z') + 1 });
  });
});
