import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rowsOf, writeWithRating } from '../../catalogue/index.js';
import type { Database } from '../../db/client.js';
import { loggableError } from '../../plugins/errors.js';

/*
 * Lessons done follows lessons that end (issue 26, decision 120). A teacher's lessons done is
 * the imported figure plus the lessons that took place here (refreshTeacherRating); a lesson
 * counts from its end, so something must notice the end. Every server sweeps once a minute:
 * it finds the teachers with lessons that have ended and are not counted yet (the partial
 * index booking_uncounted_idx) and, per teacher, in one transaction through the catalogue's
 * single-teacher write path, marks those lessons counted and recounts the teacher — so the
 * card, list, search, counts and home figures follow like any other change (decision 107).
 *
 * Two servers: the mark is the claim. The second server's update of the same lessons waits
 * for the first's transaction, then finds them counted and writes nothing (no recount, no
 * feed row). A crash between two teachers leaves the rest for the next sweep. A no-show
 * marked later recounts the teacher itself (review-service's writeWithRating), un-counting it.
 */

const LESSON_MS = 3_600_000;
/** Teachers looked at per round of a sweep. */
const TEACHERS_PER_ROUND = 200;
/**
 * At most this many teachers per sweep (a minute): far more than the lessons that end in a
 * minute, while a backlog — the first sweep after migration 0025, which finds every lesson
 * that ever ended uncounted — is worked off 500 teachers a minute (~44 ms each, measured:
 * decision 120).
 */
export const TEACHERS_PER_SWEEP = 500;

/** The lessons that ended by `ended` and are not counted yet (the partial index's predicate). */
const uncounted = (ended: string) =>
  sql`b.counted_at is null and b.cancelled_at is null and b.hold_expires_at is null and b.start is not null
      and b.start <= ${ended}::timestamptz`;

/**
 * Counts the lessons that have ended by `at` in their teachers' lessons done (at most
 * TEACHERS_PER_SWEEP teachers; the next sweep goes on). Returns how many teachers were
 * recounted and how many lessons were marked. Safe to run on any number of servers.
 */
export async function sweepEndedLessons(db: Database, at: number): Promise<{ teachers: number; lessons: number }> {
  const ended = new Date(at - LESSON_MS).toISOString();
  const when = new Date(at);
  let teachers = 0;
  let lessons = 0;
  const seen = new Set<string>();
  while (seen.size < TEACHERS_PER_SWEEP) {
    const found = await db.rows<{ teacher_id: string }>(
      sql`select distinct b.teacher_id from booking b where ${uncounted(ended)} limit ${TEACHERS_PER_ROUND}`,
    );
    // a teacher another server is counting right now may show again: once per sweep is enough
    const todo = found.map((r) => r.teacher_id).filter((id) => !seen.has(id)).slice(0, TEACHERS_PER_SWEEP - seen.size);
    if (todo.length === 0) break;
    for (const teacherId of todo) {
      seen.add(teacherId);
      const marked = await writeWithRating(db, teacherId, when, async (tx) => {
        const rows = await rowsOf<{ id: string }>(
          tx,
          sql`update booking b set counted_at = ${when.toISOString()}::timestamptz
              where b.teacher_id = ${teacherId} and ${uncounted(ended)} returning b.id`,
        );
        return rows.length > 0 ? rows.length : null;
      });
      if (marked) {
        teachers += 1;
        lessons += marked;
      }
    }
    if (found.length < TEACHERS_PER_ROUND) break;
  }
  return { teachers, lessons };
}

/** Sweeps every `everyMs` while the app runs (0: never; tests call sweepEndedLessons). */
export function scheduleLessonSweep(app: FastifyInstance, now: () => number, everyMs: number): void {
  if (everyMs <= 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepEndedLessons(app.db, now())
      .catch((error: unknown) => app.log.warn({ err: loggableError(error) }, 'could not count the lessons that ended'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
