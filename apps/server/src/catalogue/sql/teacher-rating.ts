import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { singleWrite } from './teacher-writes.js';

/*
 * A teacher's figures from its reviews and lessons (issue 26, decision 112), kept on the
 * teacher's row and never computed per request: the rating is the mean of its visible
 * reviews (imported + from lessons here, one decimal; the school may hide either), the review count theirs, and lessons
 * done the imported figure plus the lessons that took place here (ended, not cancelled, no
 * one absent). A teacher left with no visible review has the import's rating again.
 *
 * Every change that moves them goes through the single-teacher write path (decision 107):
 * one transaction that writes the change (a review, an answer, a hide, a no-show), recomputes
 * the figures, re-projects that teacher (card, language, search rows) and appends to the
 * change feed, so every server's list, search index, counts and caches follow within ~1 s.
 */

const LESSON_MS = 3_600_000;

/** Recomputes one teacher's rating, review count and lessons done in `tx` (as of `at`). */
export async function refreshTeacherRating(tx: Db, teacherId: string, at: Date): Promise<void> {
  // the teacher's row first: a concurrent review of this teacher waits here, and the next
  // statement (a snapshot of its own) then counts that review too
  await tx.execute(sql`select 1 from teacher where id = ${teacherId} for update`);
  const ended = new Date(at.getTime() - LESSON_MS).toISOString();
  await tx.execute(sql`
    update teacher t set
      rating_imported = coalesce(t.rating_imported, t.rating),
      lessons_imported = coalesce(t.lessons_imported, t.lessons_done),
      review_count = s.n,
      rating = case when s.n = 0 then coalesce(t.rating_imported, t.rating)
                    else round((s.total / s.n)::numeric, 1)::float8 end,
      lessons_done = coalesce(t.lessons_imported, t.lessons_done) + (
        select count(*)::int from booking b
        where b.teacher_id = t.id and b.start is not null and b.start <= ${ended}::timestamptz
          and b.cancelled_at is null and b.hold_expires_at is null
          and b.learner_absent_at is null and b.teacher_absent_at is null),
      updated_at = now()
    from (
      select count(*)::int as n, coalesce(sum(v.r), 0)::float8 as total from (
        select reviewer_rating as r from review where teacher_id = ${teacherId} and hidden_at is null
        union all
        select rating::float8 from lesson_review where teacher_id = ${teacherId} and hidden_at is null) v
    ) s
    where t.id = ${teacherId}`);
}

/**
 * Runs `write` (false or null: nothing changed) and, when it changed something, recomputes
 * the teacher's figures, re-projects the teacher and appends to the change feed — all in one
 * transaction. Returns what `write` returned.
 */
export async function writeWithRating<T>(
  db: Database,
  teacherId: string,
  at: Date,
  write: (tx: Db) => Promise<T | null | false>,
): Promise<T | null | false> {
  let result: T | null | false = null;
  await singleWrite(db, teacherId, async (tx) => {
    result = await write(tx);
    if (result === null || result === false) return false;
    await refreshTeacherRating(tx, teacherId, at);
    return true;
  });
  return result;
}
