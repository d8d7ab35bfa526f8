import { describe, expect, it } from 'vitest';
import { generateAvailability } from '../../catalogue/index.js';
import { bookableWindow, isTimeZone, isWeeklyHours, lessonStarts, parseWeeklyHours, zonedHourToInstant, type WeeklyHours } from './schedule.js';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);
const everyDay = (from: number, to: number): WeeklyHours => Array.from({ length: 7 }, () => [[from, to]]);

describe('zonedHourToInstant', () => {
  it('uses the zone offset in force on that date, not a fixed one (America/New_York)', () => {
    expect(iso(zonedHourToInstant(2026, 10, 30, 9, 'America/New_York')!)).toBe('2026-10-30T13:00:00.000Z'); // EDT, -4
    expect(iso(zonedHourToInstant(2026, 11, 2, 9, 'America/New_York')!)).toBe('2026-11-02T14:00:00.000Z'); // EST, -5
    expect(iso(zonedHourToInstant(2026, 7, 1, 9, 'Asia/Kolkata')!)).toBe('2026-07-01T03:30:00.000Z');
    expect(iso(zonedHourToInstant(2026, 1, 15, 0, 'UTC')!)).toBe('2026-01-15T00:00:00.000Z');
  });

  it('gives null for an hour skipped by the spring change and the earlier of a repeated hour', () => {
    expect(zonedHourToInstant(2026, 3, 8, 2, 'America/New_York')).toBeNull();
    expect(iso(zonedHourToInstant(2026, 3, 8, 3, 'America/New_York')!)).toBe('2026-03-08T07:00:00.000Z');
    // 01:00 happens twice on 1 November 2026: first in EDT (05:00 UTC), then in EST (06:00 UTC)
    expect(iso(zonedHourToInstant(2026, 11, 1, 1, 'America/New_York')!)).toBe('2026-11-01T05:00:00.000Z');
  });
});

describe('lessonStarts', () => {
  it('gives each whole hour of the ranges per weekday, Monday first, in the teacher zone', () => {
    const hours: WeeklyHours = [[[9, 11]], [], [], [], [], [], [[20, 22]]]; // Mon 9–11, Sun 20–22
    // Sunday 2026-11-22 and Monday 2026-11-23 in Europe/Kyiv (UTC+2)
    const starts = lessonStarts({ timeZone: 'Europe/Kyiv', hours }, at('2026-11-22T00:00:00Z'), at('2026-11-24T00:00:00Z'));
    expect(starts.map(iso)).toEqual([
      '2026-11-22T18:00:00.000Z',
      '2026-11-22T19:00:00.000Z',
      '2026-11-23T07:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
    ]);
  });

  it('keeps 09:00–11:00 New York time across the autumn DST change (13:00Z before, 14:00Z after)', () => {
    const starts = lessonStarts({ timeZone: 'America/New_York', hours: everyDay(9, 11) }, at('2026-10-31T00:00:00Z'), at('2026-11-03T00:00:00Z'));
    expect(starts.map(iso)).toEqual([
      '2026-10-31T13:00:00.000Z',
      '2026-10-31T14:00:00.000Z',
      '2026-11-01T14:00:00.000Z',
      '2026-11-01T15:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
      '2026-11-02T15:00:00.000Z',
    ]);
  });

  it('skips the missing hour of the spring change and gives a repeated hour once', () => {
    const spring = lessonStarts({ timeZone: 'America/New_York', hours: everyDay(1, 4) }, at('2026-03-08T00:00:00Z'), at('2026-03-08T12:00:00Z'));
    // 01:00 EST, (02:00 does not exist), 03:00 EDT
    expect(spring.map(iso)).toEqual(['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z']);
    const autumn = lessonStarts({ timeZone: 'America/New_York', hours: everyDay(0, 3) }, at('2026-11-01T00:00:00Z'), at('2026-11-01T12:00:00Z'));
    // 00:00 EDT, 01:00 EDT (its repeat in EST is not a second start), 02:00 EST
    expect(autumn.map(iso)).toEqual(['2026-11-01T04:00:00.000Z', '2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z']);
  });

  it('keeps only starts inside [from, to)', () => {
    const starts = lessonStarts({ timeZone: 'UTC', hours: everyDay(9, 12) }, at('2026-11-23T10:00:00Z'), at('2026-11-23T11:00:00Z'));
    expect(starts.map(iso)).toEqual(['2026-11-23T10:00:00.000Z']);
    expect(lessonStarts({ timeZone: 'UTC', hours: everyDay(9, 12) }, at('2026-11-23T10:30:00Z'), at('2026-11-23T10:30:00Z'))).toEqual([]);
  });

  it('the bookable window is 12 hours to 14 days ahead', () => {
    const now = at('2026-11-23T09:15:00Z');
    const window = bookableWindow(now);
    expect(iso(window.from)).toBe('2026-11-23T21:15:00.000Z');
    expect(window.to - 1).toBe(at('2026-12-07T09:15:00Z'));
  });
});

describe('parseWeeklyHours (SCHOOL_HOURS)', () => {
  it('reads day ranges and several hour ranges', () => {
    expect(parseWeeklyHours('Mon-Fri 09:00-18:00')).toEqual([[[9, 18]], [[9, 18]], [[9, 18]], [[9, 18]], [[9, 18]], [], []]);
    expect(parseWeeklyHours('mon 08:00-12:00,13:00-17:00; Sun 10:00-24:00')).toEqual([[[8, 12], [13, 17]], [], [], [], [], [], [[10, 24]]]);
  });

  it.each([
    ['', 'no hours given'],
    ['Mon-Fri', 'expected e.g.'],
    ['Fri-Mon 09:00-18:00', 'in order'],
    ['Xyz 09:00-18:00', 'Mon…Sun'],
    ['Mon 09:30-18:00', 'whole hours'],
    ['Mon 18:00-09:00', 'whole hours'],
    ['Mon 09:00-25:00', 'whole hours'],
    [`Mon ${'09:00-10:00,'.repeat(40)}`, 'at most 300'],
  ])('refuses %j', (text, message) => {
    const result = parseWeeklyHours(text);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toContain(message);
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('generated availability', () => {
  it('gives every generated teacher a known zone and well-formed hours, deterministically', () => {
    for (let n = 1; n <= 50; n += 1) {
      const a = generateAvailability(n);
      expect(isTimeZone(a.timeZone)).toBe(true);
      expect(isWeeklyHours(a.weeklyHours)).toBe(true);
      expect(a.weeklyHours.flat().length).toBeGreaterThan(0);
      expect(generateAvailability(n)).toEqual(a);
    }
    expect(new Set(Array.from({ length: 50 }, (_, i) => generateAvailability(i + 1).timeZone)).size).toBeGreaterThan(5);
  });
});
