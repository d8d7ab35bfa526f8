import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';
import { generatedTeacherId } from '../profiles/generator.js';
import { seedGenerated } from '../profiles/seed.js';
import { createFeedRepository } from './catalogue-feed.js';
import { SEARCHED_COLUMNS, writeListRows } from './catalogue-writer.js';
import { hideTeacher, unhideTeacher, updateTeacher, type TeacherPatch } from './teacher-writes.js';

// Decision 107's addendum: updateTeacher re-projects only what a patch reaches, in place, and
// appends the feed row last under the writers' lock. What it leaves must be what the whole
// re-projection (writeListRows) gives, field by field; what it does not reach it must not
// write; and concurrent writers must leave a feed a follower reads whole and in order.

const COUNT = 30;
let t: TestDatabase;
let db: Database;

beforeAll(async () => {
  t = await createTestDatabase();
  db = t.db;
  await seedGenerated(db, COUNT);
});
afterAll(async () => {
  await t.drop();
});

/** Everything derived from one teacher, as text (the rows' contents, not their versions). */
async function derived(id: string) {
  const [card] = await db.rows<{ json: string }>(sql`select json from teacher_card where teacher_id = ${id}`);
  const languages = await db.rows(
    sql`select language, rating, price_per_hour, lessons_done, levels, country from teacher_language where teacher_id = ${id} order by language`,
  );
  const search = await db.rows(
    sql`select name_text, document::text as document, rating, price_per_hour, lessons_done, languages, levels, country
        from teacher_search where teacher_id = ${id}`,
  );
  const names = await db.rows(sql`select name_text from teacher_name order by 1`);
  const words = await db.rows(sql`select word, documents from teacher_word order by 1`);
  return { card: card?.json ?? null, languages, search, names, words };
}

/** The row versions (xmin) of one teacher's derived rows: a row not written keeps its own. */
async function versions(id: string) {
  const rows = async (table: string) =>
    (await db.rows<{ v: string }>(sql`select xmin::text as v from ${sql.raw(table)} where teacher_id = ${id} order by 1`)).map((row) => row.v);
  return { card: await rows('teacher_card'), languages: await rows('teacher_language'), search: await rows('teacher_search') };
}

/** teacher_word's counts of documents are a count of the documents now, and no word is at 0. */
async function expectWordCounts(): Promise<void> {
  const kept = await db.rows(sql`select word, documents from teacher_word order by word`);
  const counted = await db.rows(
    sql`select l.word, count(*)::int as documents from teacher_search s, unnest(tsvector_to_array(s.document)) as l(word)
        where l.word ~ '^[[:alpha:]]{3,}$' group by l.word order by l.word`,
  );
  expect(kept).toEqual(counted);
}

/** One patch of each field updateTeacher takes (all but id and reviews), different from the generated values. */
const PATCHES: Record<string, TeacherPatch> = {
  name: { name: 'Zenobia' },
  surname: { surname: 'Quillfeather' },
  languages: { languages: ['Quenya', 'French'] },
  levels: { levels: ['A1 Beginner'] },
  rating: { rating: 1.25 },
  price_per_hour: { price_per_hour: 77 },
  lessons_done: { lessons_done: 4242 },
  avatar_url: { avatar_url: 'https://example.com/a.png' },
  lesson_info: { lesson_info: 'Mnemonics and zyzzyva drills.' },
  conditions: { conditions: ['Bring a zither'] },
  experience: { experience: 'Taught in Ulaanbaatar.' },
  country: { country: 'Mongolia' },
};

describe('updateTeacher re-projects only what a patch reaches', () => {
  it('covers every field a patch may set', async () => {
    const { teacherPatchSchema } = await import('./teacher-writes.js');
    expect(Object.keys(PATCHES).sort()).toEqual(Object.keys(teacherPatchSchema.shape).sort());
  });

  it.each(Object.entries(PATCHES))('a change of %s leaves what the whole re-projection gives', async (field, patch) => {
    const id = generatedTeacherId(1 + Object.keys(PATCHES).indexOf(field));
    await updateTeacher(db, id, patch);
    const after = await derived(id);
    // the card shows the change (its reviews kept)
    expect(JSON.parse(after.card ?? '{}')).toMatchObject(patch);
    const [reviews] = await db.rows<{ n: number }>(sql`select count(*)::int as n from review where teacher_id = ${id}`);
    expect(JSON.parse(after.card ?? '{}').reviews).toHaveLength(Number(reviews?.n));
    await db.orm.transaction((tx) => writeListRows(tx, [id]));
    expect(await derived(id)).toEqual(after);
    await expectWordCounts();
  });

  it('several fields at once, and again, agree with the whole re-projection', async () => {
    const id = generatedTeacherId(20);
    await updateTeacher(db, id, { price_per_hour: 12, rating: 4.75, country: null, levels: ['C2 Proficient', 'B1 Intermediate'] });
    await updateTeacher(db, id, { lessons_done: 3, avatar_url: null });
    const after = await derived(id);
    await db.orm.transaction((tx) => writeListRows(tx, [id]));
    expect(await derived(id)).toEqual(after);
  });

  it('a field only on the card rewrites the card alone; a price no search or name row', async () => {
    const id = generatedTeacherId(21);
    const before = await versions(id);
    await updateTeacher(db, id, { avatar_url: 'https://example.com/b.png' });
    const avatar = await versions(id);
    expect(avatar.card).not.toEqual(before.card);
    expect(avatar.languages).toEqual(before.languages); // not deleted and inserted again
    expect(avatar.search).toEqual(before.search);

    const [searchBefore] = await db.rows<{ name_text: string; document: string }>(
      sql`select name_text, document::text as document from teacher_search where teacher_id = ${id}`,
    );
    await updateTeacher(db, id, { price_per_hour: 31 });
    const price = await versions(id);
    expect(price.languages).not.toEqual(avatar.languages);
    expect(price.search).not.toEqual(avatar.search);
    const [searchAfter] = await db.rows<{ name_text: string; document: string; price: number }>(
      sql`select name_text, document::text as document, price_per_hour as price from teacher_search where teacher_id = ${id}`,
    );
    expect(searchAfter).toEqual({ ...searchBefore, price: 31 });
  });

  it('a searched field still re-projects the teacher whole: its words and names follow', async () => {
    const id = generatedTeacherId(22);
    const has = async (table: 'teacher_word' | 'teacher_name', column: string, value: string) =>
      (await db.rows(sql`select 1 from ${sql.raw(table)} where ${sql.raw(column)} = ${value}`)).length === 1;
    expect(SEARCHED_COLUMNS).toEqual(new Set(['name', 'surname', 'languages', 'lesson_info', 'conditions', 'experience']));
    await updateTeacher(db, id, { experience: 'Xanthippic quibbles.', surname: 'Onlyone' });
    expect(await has('teacher_word', 'word', 'xanthippic')).toBe(true);
    const [row] = await db.rows<{ name_text: string }>(sql`select name_text from teacher_search where teacher_id = ${id}`);
    expect(await has('teacher_name', 'name_text', row?.name_text ?? '')).toBe(true);
    // its own words go when no document has them any more; words others share stay
    await updateTeacher(db, id, { experience: 'Lessons.', surname: 'Someoneelse' });
    expect(await has('teacher_word', 'word', 'xanthippic')).toBe(false);
    expect(await has('teacher_word', 'word', 'quibbles')).toBe(false);
    expect(await has('teacher_word', 'word', 'lessons')).toBe(true);
    expect(await has('teacher_name', 'name_text', row?.name_text ?? '')).toBe(false);
    await expectWordCounts();
  });

  it('a hidden teacher edited gets no list rows, and its edit shows once unhidden', async () => {
    const id = generatedTeacherId(23);
    await hideTeacher(db, id);
    await updateTeacher(db, id, { price_per_hour: 55, avatar_url: null });
    expect(await versions(id)).toEqual({ card: [], languages: [], search: [] });
    await unhideTeacher(db, id);
    const [card] = await db.rows<{ json: string }>(sql`select json from teacher_card where teacher_id = ${id}`);
    expect(JSON.parse(card?.json ?? '{}')).toMatchObject({ price_per_hour: 55, avatar_url: null });
  });
});

describe('concurrent single-teacher writes and a reader of the feed', () => {
  it('every feed row is read once, in seq order, and the teachers re-read as the reader goes end as the database has them', async () => {
    const feed = createFeedRepository(db);
    const start = (await feed.read(0, 1)).last;
    let position = start;
    const seen: number[] = [];
    const applied = new Map<string, { price: number; lessons: number }>();
    let writing = true;
    // a follower's loop: the rows after its position, then those teachers as they are now
    const reader = (async () => {
      for (;;) {
        const done = !writing;
        const read = await feed.read(position, 50);
        for (const change of read.changes) seen.push(change.seq);
        if (read.changes.length > 0) {
          position = read.changes.at(-1)?.seq ?? position;
          const now = await feed.teachers(read.changes.map((change) => change.teacherId));
          for (const [id, teacher] of now) applied.set(id, { price: teacher.price, lessons: teacher.lessons });
        } else if (done) return;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    const ids = [1, 2, 3, 4, 5].map(generatedTeacherId);
    let k = 0;
    const writer = async () => {
      for (let i = 0; i < 30; i++) {
        const n = ++k;
        const id = ids[n % ids.length] as string;
        // a narrow patch, and now and then a whole one (its words and name, under the lock)
        await updateTeacher(db, id, n % 7 === 0 ? { lessons_done: n, price_per_hour: n, surname: `S${n % 3}` } : { lessons_done: n, price_per_hour: n });
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    writing = false;
    await reader;

    const rows = await db.rows<{ seq: number }>(sql`select seq::float8 as seq from catalogue_change where seq > ${start} order by seq`);
    expect(rows).toHaveLength(120);
    expect(seen).toEqual(rows.map((row) => Number(row.seq)));
    const final = await db.rows<{ id: string; price: number; lessons: number }>(
      sql`select id, price_per_hour as price, lessons_done as lessons from teacher where id = any(${sql.param(ids)}::text[]) order by id`,
    );
    for (const row of final) {
      // the last write whole: price and lessons were written together
      expect(Number(row.price)).toBe(Number(row.lessons));
      expect(applied.get(row.id)).toEqual({ price: Number(row.price), lessons: Number(row.lessons) });
    }
    await expectWordCounts();
  });
});
