import { describe, expect, it } from 'vitest';
import { lessonSpan, wallMoment } from './lessons-time';

describe("a lesson's times on the teacher's clock", () => {
  it('reads as weekday, day, month, year and the span', () => {
    const lesson = {
      localStart: { date: '2026-03-09', weekday: 'Mon', time: '13:00', offset: '-04:00' },
      localEnd: { date: '2026-03-09', weekday: 'Mon', time: '14:00', offset: '-04:00' },
    };
    expect(lessonSpan(lesson)).toBe('Mon 9 Mar 2026, 13:00–14:00');
  });

  it('keeps a lesson at 23:00 one span, and names a deadline', () => {
    const lesson = {
      localStart: { date: '2026-12-31', weekday: 'Thu', time: '23:00', offset: '+05:30' },
      localEnd: { date: '2027-01-01', weekday: 'Fri', time: '00:00', offset: '+05:30' },
    };
    expect(lessonSpan(lesson)).toBe('Thu 31 Dec 2026, 23:00–00:00');
    expect(wallMoment(lesson.localEnd)).toBe('Fri 1 Jan 2027, 00:00');
  });
});
