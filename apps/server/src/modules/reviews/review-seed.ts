import { sql } from 'drizzle-orm';
import { bumpCatalogueVersion, CATALOGUE_WRITE_LOCK, refreshCatalogueStatistics, writeListRows } from '../../catalogue/index.js';
import type { Database } from '../../db/client.js';

/*
 * Lessons taken and reviewed, in bulk, for the benchmarks (`npm run seed -- --count N
 * --lesson-reviews R`, bench/api.mjs --lesson-reviews): R past lessons per teacher, each with
 * its learner's review (ratings 1–5 spread by a hash), then every teacher's figures as
 * refreshTeacherRating computes them and the list rows written again — a bulk write, so it
 * bumps the catalogue version (every server rebuilds, as after a seed). Idempotent: teachers
 * that have bench lessons already get none.
 */

const BATCH = 5_000;
const LEARNER = 'Bench Learner';

export async function seedLessonReviews(db: Database, perTeacher: number): Promise<{ reviews: number }> {
  if (!Number.isInteger(perTeacher) || perTeacher < 0 || perTeacher > 1000) throw new Error('perTeacher: 0 to 1000');
  if (perTeacher === 0) return { reviews: 0 };
  const ids = (await db.rows<{ id: string }>(sql`select id from teacher order by id`)).map((row) => row.id);
  let reviews = 0;
  for (let from = 0; from < ids.length; from += BATCH) {
    const batch = ids.slice(from, from + BATCH);
    await db.orm.transaction(async (tx) => {
      const list = sql`${sql.param(batch)}::text[]`;
      // one past lesson per (teacher, g): distinct starts, so the one-lesson-per-slot index holds
      await tx.execute(sql`
        insert into booking (id, teacher_id, reason, full_name, email, phone, created_at, start, language)
        select gen_random_uuid(), t.id, 'Career and business', ${LEARNER}, 'bench@example.com', '+10000000',
               now() - interval '60 days', date_trunc('hour', now()) - make_interval(hours => 24 + g), t.languages[1]
        from teacher t, generate_series(1, ${perTeacher}) g
        where t.id = any(${list})
          and not exists (select 1 from booking b where b.teacher_id = t.id and b.full_name = ${LEARNER})`);
      const inserted = await tx.execute(sql`
        insert into lesson_review (id, booking_id, teacher_id, reviewer_name, language, lesson_start, rating, comment, created_at, updated_at)
        select gen_random_uuid(), b.id, b.teacher_id, 'Sam', b.language, b.start, 1 + abs(hashtext(b.id::text)) % 5,
               'Clear explanations and a friendly pace.', b.start + interval '2 hours', b.start + interval '2 hours'
        from booking b
        where b.teacher_id = any(${list}) and b.full_name = ${LEARNER}
          and not exists (select 1 from lesson_review r where r.booking_id = b.id)
        returning 1`);
      reviews += Array.isArray(inserted) ? inserted.length : ((inserted as { rows?: unknown[] }).rows?.length ?? 0);
      // the figures, as refreshTeacherRating computes them, for the whole batch at once
      await tx.execute(sql`
        update teacher t set
          rating_imported = coalesce(t.rating_imported, t.rating),
          lessons_imported = coalesce(t.lessons_imported, t.lessons_done),
          review_count = s.n,
          rating = case when s.n = 0 then coalesce(t.rating_imported, t.rating) else round((s.total / s.n)::numeric, 1)::float8 end,
          lessons_done = coalesce(t.lessons_imported, t.lessons_done) + s.lessons
        from (
          select t2.id,
            (select count(*) from review r where r.teacher_id = t2.id)
              + (select count(*) from lesson_review l where l.teacher_id = t2.id and l.hidden_at is null) as n,
            coalesce((select sum(r.reviewer_rating) from review r where r.teacher_id = t2.id), 0)
              + coalesce((select sum(l.rating) from lesson_review l where l.teacher_id = t2.id and l.hidden_at is null), 0) as total,
            (select count(*)::int from booking b where b.teacher_id = t2.id and b.start <= now() - interval '1 hour'
               and b.cancelled_at is null and b.hold_expires_at is null and b.learner_absent_at is null and b.teacher_absent_at is null) as lessons
          from teacher t2 where t2.id = any(${list})
        ) s
        where t.id = s.id`);
      await tx.execute(sql`select pg_advisory_xact_lock(${CATALOGUE_WRITE_LOCK})`);
      await writeListRows(tx, batch, { locked: true });
      await bumpCatalogueVersion(tx);
    });
  }
  await db.rows(sql`analyze lesson_review`);
  await db.rows(sql`analyze booking`);
  await refreshCatalogueStatistics(db);
  return { reviews };
}
