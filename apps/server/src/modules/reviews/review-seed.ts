import { sql } from 'drizzle-orm';
import { bumpCatalogueVersion, CATALOGUE_WRITE_LOCK, refreshCatalogueStatistics, teacherCardJson } from '../../catalogue/index.js';
import type { Database } from '../../db/client.js';

/*
 * Lessons taken and reviewed, in bulk, for the benchmarks (`npm run seed -- --count N
 * --lesson-reviews R`, bench/api.mjs --lesson-reviews): R past lessons per teacher, each with
 * its learner's review (ratings 1–5 spread by a hash); then every teacher's figures as
 * refreshTeacherRating computes them, and the derived rows they feed (the card's JSON, the
 * rating and lessons done of the language and search rows; names and words do not change) —
 * set-based, one transaction, a bulk write: it bumps the catalogue version (every server
 * rebuilds, as after a seed). Teachers that have bench lessons already get none.
 */

const LEARNER = 'Bench Learner';

export async function seedLessonReviews(db: Database, perTeacher: number): Promise<{ reviews: number }> {
  if (!Number.isInteger(perTeacher) || perTeacher < 0 || perTeacher > 1000) throw new Error('perTeacher: 0 to 1000');
  if (perTeacher === 0) return { reviews: 0 };
  let reviews = 0;
  await db.orm.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CATALOGUE_WRITE_LOCK})`);
    // one past lesson per (teacher, g): distinct starts, so the one-lesson-per-slot index holds
    await tx.execute(sql`
      insert into booking (id, teacher_id, reason, full_name, email, phone, created_at, start, language, counted_at)
      select gen_random_uuid(), t.id, 'Career and business', ${LEARNER}, 'bench@example.com', '+10000000',
             now() - interval '60 days', date_trunc('hour', now()) - make_interval(hours => 24 + g), t.languages[1], now()
      from teacher t cross join generate_series(1, ${perTeacher}) g
      where not exists (select 1 from booking b where b.teacher_id = t.id and b.full_name = ${LEARNER})`);
    const [inserted] = await tx.execute(sql`
      with added as (
        insert into lesson_review (id, booking_id, teacher_id, reviewer_name, language, lesson_start, rating, comment, created_at, updated_at)
        select gen_random_uuid(), b.id, b.teacher_id, 'Sam', b.language, b.start, 1 + abs(hashtext(b.id::text)) % 5,
               'Clear explanations and a friendly pace.', b.start + interval '2 hours', b.start + interval '2 hours'
        from booking b
        where b.full_name = ${LEARNER} and not exists (select 1 from lesson_review r where r.booking_id = b.id)
        returning 1)
      select count(*)::int as n from added`).then((result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { n: number }[]);
    reviews = Number(inserted?.n ?? 0);
    // every lesson that has ended is in the figures below: the lesson sweep has nothing left to count
    await tx.execute(sql`
      update booking set counted_at = now()
      where counted_at is null and cancelled_at is null and hold_expires_at is null and start is not null
        and start <= now() - interval '1 hour'`);
    // the figures, as refreshTeacherRating computes them, for every teacher at once
    await tx.execute(sql`
      with r as (select teacher_id, count(*) as n, sum(reviewer_rating) as s from review where hidden_at is null group by teacher_id),
           l as (select teacher_id, count(*) as n, sum(rating) as s from lesson_review where hidden_at is null group by teacher_id),
           b as (select teacher_id, count(*)::int as n from booking
                 where start <= now() - interval '1 hour' and cancelled_at is null and hold_expires_at is null
                   and learner_absent_at is null and teacher_absent_at is null group by teacher_id)
      update teacher t set
        rating_imported = coalesce(t.rating_imported, t.rating),
        lessons_imported = coalesce(t.lessons_imported, t.lessons_done),
        review_count = s.n,
        rating = case when s.n = 0 then coalesce(t.rating_imported, t.rating) else round((s.total / s.n)::numeric, 1)::float8 end,
        lessons_done = coalesce(t.lessons_imported, t.lessons_done) + s.lessons
      from (
        select t2.id, coalesce(r.n, 0) + coalesce(l.n, 0) as n, coalesce(r.s, 0) + coalesce(l.s, 0) as total, coalesce(b.n, 0) as lessons
        from teacher t2 left join r on r.teacher_id = t2.id left join l on l.teacher_id = t2.id left join b on b.teacher_id = t2.id
      ) s
      where t.id = s.id`);
    // what those figures feed: the card, the language and search rows' order columns
    await tx.execute(sql`update teacher_card c set json = ${teacherCardJson} from teacher "teacher" where "teacher".id = c.teacher_id`);
    await tx.execute(sql`update teacher_language x set rating = t.rating, lessons_done = t.lessons_done from teacher t where t.id = x.teacher_id`);
    await tx.execute(sql`update teacher_search x set rating = t.rating, lessons_done = t.lessons_done from teacher t where t.id = x.teacher_id`);
    await bumpCatalogueVersion(tx);
  });
  await db.rows(sql`analyze lesson_review`);
  await db.rows(sql`analyze booking`);
  await refreshCatalogueStatistics(db);
  return { reviews };
}
