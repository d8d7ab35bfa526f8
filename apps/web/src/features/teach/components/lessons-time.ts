import type { TeachLessonItem, WallClock } from '@learnlingo/contract';

/*
 * A lesson's times on the teacher's clock, as the server worked them out in the teacher's zone
 * (the page names it): no formatting here depends on the browser's zone or locale, so the
 * server's HTML and the browser's render say the same.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `Mon 9 Mar 2026` */
export function wallDate({ date, weekday }: WallClock): string {
  const [year, month, day] = date.split('-').map(Number);
  return `${weekday} ${day} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/** `Mon 9 Mar 2026, 13:00–14:00`; an end on the next day (a lesson at 23:00) still reads as one span. */
export function lessonSpan(lesson: Pick<TeachLessonItem, 'localStart' | 'localEnd'>): string {
  return `${wallDate(lesson.localStart)}, ${lesson.localStart.time}–${lesson.localEnd.time}`;
}

/** `Fri 6 Mar 2026, 11:00` */
export const wallMoment = (clock: WallClock) => `${wallDate(clock)}, ${clock.time}`;
