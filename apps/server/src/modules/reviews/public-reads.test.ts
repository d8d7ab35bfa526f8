import { REVIEWS_PAGE_SIZE, teacherSchema, type PublicReview, type ReviewSort, type TeacherReviewsPage } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTeachersRepository, teacherCardJson } from '../../catalogue/index.js';
import type { Database } from '../../db/client.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { seedLessonReviews } from './review-seed.js';
import { createReviewService } from './review-service.js';

/*
 * A distinct teacher page's two public reads (issue 29): the teacher by id, served from its
 * card, and a page of its reviews, one statement whose JSON the database writes. Both must
 * answer what the reads they replaced answered: the teacher as the by-id row serialised
 * through teacherSchema (the same value, its fields in the same order: what a page's state is
 * made of), and the page as the two queries below made it (the code before issue 29, kept
 * here as the reference) serialised through the route's schema, to the byte.
 */

const COUNT = 12;
let t: TestApp;
let ids: string[];

/** The reviews page as it was read before issue 29: the figures, then the page, mapped in JS. */
async function referencePage(db: Database, teacherId: string, sort: ReviewSort, page: number): Promise<TeacherReviewsPage | null> {
  const [row] = await db.rows<{ rating: number; total: number }>(
    sql`select t.rating, coalesce(t.review_count, (select count(*)::int from review r where r.teacher_id = t.id and r.hidden_at is null)) as total
        from teacher t where t.id = ${teacherId} and not t.hidden`,
  );
  if (!row) return null;
  const total = Number(row.total);
  const pages = Math.max(1, Math.ceil(total / REVIEWS_PAGE_SIZE));
  const order =
    sort === 'lowest'
      ? sql`v.rating asc, v.kind asc, v.at desc nulls last, v.pos asc, v.id asc`
      : sql`v.kind asc, v.at desc nulls last, v.pos asc, v.id asc`;
  const rows = await db.rows<{ kind: number; name: string; rating: number; comment: string; at: Date | string | null; language: string | null; reply: string | null }>(
    sql`select v.kind, v.name, v.rating, v.comment, v.start as at, v.language, v.reply from (
          select 0 as kind, lr.reviewer_name as name, lr.rating::float8 as rating, lr.comment, lr.created_at as at, lr.lesson_start as start,
                 lr.language, lr.reply, 0 as pos, lr.id::text as id
          from lesson_review lr where lr.teacher_id = ${teacherId} and lr.hidden_at is null
          union all
          select 1, rv.reviewer_name, rv.reviewer_rating, rv.comment, null, null, null, null, rv.position, rv.id::text
          from review rv where rv.teacher_id = ${teacherId} and rv.hidden_at is null) v
        order by ${order}
        limit ${REVIEWS_PAGE_SIZE} offset ${(page - 1) * REVIEWS_PAGE_SIZE}`,
  );
  const items: PublicReview[] = rows.map((r) => ({
    kind: Number(r.kind) === 0 ? 'lesson' : 'imported',
    reviewer_name: r.name,
    reviewer_rating: Number(r.rating),
    comment: r.comment,
    date: r.at === null ? null : new Date(r.at).toISOString(),
    language: r.language,
    reply: r.reply,
  }));
  return { teacherId, rating: Number(row.rating), total, sort, page, pages, items };
}

beforeAll(async () => {
  t = await createTestApp({ seed: COUNT });
  await seedLessonReviews(t.db, 13);
  ids = (await t.db.rows<{ id: string }>(sql`select id from teacher order by id`)).map((r) => r.id);
  const [a, b, c, d] = ids;
  // what a page may hold: answers, hidden reviews, texts JSON must escape, a lesson at a
  // moment with micro- and milliseconds, an imported rating that is no whole number, a
  // teacher whose count was never refreshed (the count of its imported reviews stands in)
  await t.db.rows(sql`update lesson_review set reply = 'Thank you, "Sam"! \\ See you soon.', language = null
    where id in (select id from lesson_review where teacher_id = ${a} order by created_at desc limit 2)`);
  await t.db.rows(sql`update lesson_review set comment = ${'Tabs\tand\nlines, a bell \u0007, ünïcödé, 😀 and </script>'},
    lesson_start = lesson_start + interval '0.123456 seconds' where id = (select id from lesson_review where teacher_id = ${a} order by created_at limit 1)`);
  await t.db.rows(sql`update lesson_review set hidden_at = now(), hidden_reason = 'Spam' where id = (select id from lesson_review where teacher_id = ${b} order by created_at desc limit 1)`);
  await t.db.rows(sql`update review set hidden_at = now(), hidden_reason = 'Spam' where id = (select min(id) from review where teacher_id = ${b})`);
  await t.db.rows(sql`update review set reviewer_rating = 4.3, comment = ${'Quotes " and \\ backslashes'} where id = (select min(id) from review where teacher_id = ${c})`);
  await t.db.rows(sql`update teacher set review_count = null where id = ${d}`);
  await t.db.rows(sql`update teacher_card c set json = ${teacherCardJson} from teacher "teacher" where "teacher".id = c.teacher_id`);
});
afterAll(() => t.close());

describe("a teacher's JSON by id (its card)", () => {
  it('is the by-id row serialised through teacherSchema: the same value, fields in the same order, with or without a card', async () => {
    const repository = createTeachersRepository(t.db);
    // a teacher without a card (the statement builds the JSON on the spot)
    await t.db.rows(sql`delete from teacher_card where teacher_id = ${ids[COUNT - 1]}`);
    for (const id of ids) {
      const expected = JSON.stringify(teacherSchema.parse((await repository.getByIds([id]))[0]));
      // (a card's lesson reviews are json_build_object's, spaced: the same value, the same
      // fields in the same order — what a page's state, made again from the value, holds)
      expect(JSON.stringify(JSON.parse((await repository.jsonById(id))!))).toBe(expected);
      const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${id}` });
      expect(res.statusCode).toBe(200);
      expect(JSON.stringify(res.json())).toBe(expected);
    }
    expect(await repository.jsonById('t999999')).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: '/api/teachers/t999999' })).statusCode).toBe(404);
  });

  it('is read from the card: one statement, no teacher row to parse', async () => {
    const id = ids[4]!;
    const card = (await t.db.rows<{ json: string }>(sql`select json from teacher_card where teacher_id = ${id}`))[0]!.json;
    // the card's text as stored, whatever its spacing: the read parses nothing
    const spaced = JSON.stringify(JSON.parse(card), null, 1);
    await t.db.rows(sql`update teacher_card set json = ${spaced} where teacher_id = ${id}`);
    try {
      expect(await createTeachersRepository(t.db).jsonById(id)).toBe(spaced);
    } finally {
      await t.db.rows(sql`update teacher_card set json = ${card} where teacher_id = ${id}`);
    }
  });
});

describe("a teacher's reviews page (one statement)", () => {
  it('answers what the two queries and the schema answered, to the byte: every teacher, both orders, every page and one past', async () => {
    const service = createReviewService(t.db, () => Date.now());
    let compared = 0;
    for (const id of ids) {
      for (const sort of ['newest', 'lowest'] as const) {
        const first = await referencePage(t.db, id, sort, 1);
        for (let page = 1; page <= first!.pages + 1; page += 1) {
          const expected = JSON.stringify(await referencePage(t.db, id, sort, page));
          expect(await service.publicPageJson(id, sort, page)).toBe(expected);
          const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${id}/reviews?sort=${sort}&page=${page}` });
          expect([res.statusCode, res.body, res.headers['cache-control'], res.headers['content-type']]).toEqual([
            200,
            expected,
            'no-cache',
            'application/json; charset=utf-8',
          ]);
          compared += 1;
        }
      }
    }
    // the cases above are in the pages compared: several pages, answers, escapes, hidden reviews
    expect(compared).toBeGreaterThan(COUNT * 2 * 2);
    const a = (await referencePage(t.db, ids[0]!, 'newest', 1))!;
    expect(a.items.some((r) => r.reply?.includes('"Sam"'))).toBe(true);
    expect((await referencePage(t.db, ids[0]!, 'newest', 2))!.items.some((r) => r.date?.endsWith('.123Z'))).toBe(true);
    expect((await referencePage(t.db, ids[2]!, 'newest', 2))!.items.some((r) => r.reviewer_rating === 4.3)).toBe(true);
    expect(await service.publicPageJson('t999999', 'newest', 1)).toBeNull();
  });

  it('is one round trip to the database', async () => {
    const calls: string[] = [];
    const counted: Database = {
      ...t.db,
      rows: (query) => (calls.push('rows'), t.db.rows(query)),
      statement: (text, params) => (calls.push('statement'), t.db.statement(text, params)),
    };
    const page = await createReviewService(counted, () => Date.now()).publicPageJson(ids[1]!, 'lowest', 1);
    expect(JSON.parse(page!)).toMatchObject({ teacherId: ids[1], sort: 'lowest', page: 1 });
    expect(calls).toEqual(['statement']);
  });
});
