import { formatWeeklyHours, parseWeeklyHours } from '@learnlingo/contract';
import { describe, expect, it } from 'vitest';
import { closureInterval, lessonStarts, outsideClosures } from '../booking/schedule.js';

const iso = (ms: number) => new Date(ms).toISOString();

describe('closureInterval', () => {
  it("covers the closure's days in the school's zone, across a daylight-saving change", () => {
    // Kyiv: EEST (UTC+3) until Sunday 25 October 2026 04:00, then EET (UTC+2)
    const [from, to] = closureInterval({ startsOn: '2026-10-24', endsOn: '2026-10-25' }, 'Europe/Kyiv');
    expect(iso(from)).toBe('2026-10-23T21:00:00.000Z');
    expect(iso(to)).toBe('2026-10-25T22:00:00.000Z');
    // New York springs forward on 8 March 2026: that day has 23 hours
    const [start, end] = closureInterval({ startsOn: '2026-03-08', endsOn: '2026-03-08' }, 'America/New_York');
    expect(end - start).toBe(23 * 3_600_000);
  });

  it('starts a day without a midnight (Santiago skips 00:00 when its clocks go forward) at its first hour', () => {
    const [from] = closureInterval({ startsOn: '2026-09-06', endsOn: '2026-09-06' }, 'America/Santiago');
    expect(iso(from)).toBe('2026-09-06T04:00:00.000Z');
  });
});

describe('outsideClosures', () => {
  it('drops every start whose lesson overlaps a closure, keeps the rest', () => {
    const schedule = { timeZone: 'Europe/Kyiv', hours: Array.from({ length: 7 }, () => [[8, 20]]) };
    const starts = lessonStarts(schedule, Date.parse('2026-10-23T00:00:00Z'), Date.parse('2026-10-27T00:00:00Z'));
    const kept = outsideClosures(starts, [closureInterval({ startsOn: '2026-10-24', endsOn: '2026-10-25' }, 'Europe/Kyiv')]);
    expect(kept.map(iso).filter((s) => s >= '2026-10-23T21:00' && s < '2026-10-25T22:00')).toEqual([]);
    expect(kept.map(iso)).toContain('2026-10-23T16:00:00.000Z');
    expect(kept.map(iso)).toContain('2026-10-26T06:00:00.000Z');
    // a lesson that starts before a closure and ends inside it goes too
    expect(outsideClosures([Date.parse('2026-10-23T20:30:00Z')], [[Date.parse('2026-10-23T21:00:00Z'), Date.parse('2026-10-24T21:00:00Z')]])).toEqual([]);
    expect(outsideClosures(starts, [])).toBe(starts);
  });
});

describe('weekly hours text', () => {
  it('parses and formats the SCHOOL_HOURS syntax both ways', () => {
    const hours = parseWeeklyHours('Mon-Fri 09:00-18:00; Sat 10:00-13:00,14:00-16:00');
    expect(hours).not.toBeInstanceOf(Error);
    expect(formatWeeklyHours(hours as number[][][])).toBe('Mon-Fri 09:00-18:00; Sat 10:00-13:00,14:00-16:00');
    expect(parseWeeklyHours('Fri-Mon 09:00-10:00')).toBeInstanceOf(Error);
    expect(parseWeeklyHours(`Mon ${'09:00-10:00,'.repeat(40)}`)).toBeInstanceOf(Error);
  });
});
