import type { Lesson } from '@learnlingo/contract';

const STILL_TO_COME = new Set<Lesson['status']>(['upcoming', 'unscheduled', 'pending', 'requested']);
/** ended before their time (a request not answered too; not a booking never confirmed by e-mail): they stay among the lessons still to come, marked */
const endedAhead = (lesson: Lesson) =>
  lesson.status === 'cancelled' || lesson.status === 'declined' || (lesson.status === 'expired' && lesson.cancelledBy === 'expired');

const startOf = (lesson: Lesson) => (lesson.start === null ? Number.POSITIVE_INFINITY : Date.parse(lesson.start));

/**
 * My lessons' two groups at `now` (ms): what is still to come, soonest first (a lesson
 * cancelled, declined or not answered before its time stays there, marked, beside the ones it
 * was booked among; one without a time last), and what is over, as the server ordered it.
 */
export function groupLessons(items: readonly Lesson[], now: number): { upcoming: Lesson[]; past: Lesson[] } {
  const upcoming: Lesson[] = [];
  const past: Lesson[] = [];
  for (const lesson of items) {
    const cancelledAhead = endedAhead(lesson) && lesson.start !== null && startOf(lesson) > now;
    (STILL_TO_COME.has(lesson.status) || cancelledAhead ? upcoming : past).push(lesson);
  }
  // (a stable sort: the server's order among equal starts)
  upcoming.sort((a, b) => (startOf(a) === startOf(b) ? 0 : startOf(a) < startOf(b) ? -1 : 1));
  return { upcoming, past };
}
