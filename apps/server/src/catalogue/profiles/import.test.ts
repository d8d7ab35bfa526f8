import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Teacher } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTeachersRepository } from '../sql/teachers-repository.js';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';
import { countTeachers } from '../sql/catalogue-writer.js';
import { ImportError, importFile, parseExport } from './import.js';

/** The real, outside-written export (read in place, never copied into the repo). */
const SHARED_EXPORT = fileURLToPath(new URL('../../../../../../shared/data/teachers.json', import.meta.url));
const exported = JSON.parse(fs.readFileSync(SHARED_EXPORT, 'utf8')) as { teachers: Record<string, unknown>[] };
const records = exported.teachers;

let tmp: string;
let t: TestDatabase;
// One database per file (a fresh one costs seconds); each test starts from an empty catalogue.
beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-import-'));
  t = await createTestDatabase();
});
afterAll(async () => {
  fs.rmSync(tmp, { recursive: true, force: true });
  await t.drop();
});
beforeEach(async () => {
  await t.db.rows(sql`truncate teacher, review, catalogue_version cascade`);
});

function write(name: string, data: unknown): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}

/** No filter (the statements' neutral price range). */
const ANY = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };

/** Every teacher as the list serves it (cards), checked against the rows and reviews as stored. */
async function allTeachers(): Promise<Teacher[]> {
  const repo = createTeachersRepository(t.db);
  const listed: Teacher[] = [];
  let after = null;
  for (;;) {
    const page = await repo.list('rating', ANY, after, 50);
    listed.push(...(JSON.parse(page.itemsJson) as Teacher[]));
    if (!page.next) break;
    after = page.next;
  }
  const stored = new Map((await repo.getByIds(listed.map((x) => x.id))).map((x) => [x.id, x]));
  for (const card of listed) expect(card).toEqual(stored.get(card.id));
  return listed;
}

describe('importer', () => {
  it('loads the shared export as it is ({"teachers": [...]}: ids are the array indexes) and is idempotent', async () => {
    const first = await importFile(t.db, SHARED_EXPORT);
    expect(first).toEqual({ inserted: records.length, updated: 0, unchanged: 0, skipped: 0, overwroteEdits: [] });
    const teachers = await allTeachers();
    expect(teachers).toHaveLength(records.length);
    const byId = new Map(teachers.map((x) => [x.id, x]));
    records.forEach((record, index) => {
      // the original's export has no country: none
      expect(byId.get(String(index))).toEqual({ id: String(index), ...record, country: null });
    });

    const second = await importFile(t.db, SHARED_EXPORT);
    expect(second).toEqual({ inserted: 0, updated: 0, unchanged: records.length, skipped: 0, overwroteEdits: [] });
    expect(await allTeachers()).toEqual(teachers);
  });

  it.each([
    ['{"teachers": {id: {...}}}', () => ({ teachers: Object.fromEntries(records.map((r, i) => [`k${i}`, r])) }), (i: number) => `k${i}`],
    ['an object keyed by id', () => Object.fromEntries(records.map((r, i) => [`-Nx${i}`, r])), (i: number) => `-Nx${i}`],
    ['a bare array', () => records, (i: number) => String(i)],
    ['records with their own id', () => records.map((r, i) => ({ ...r, id: `own_${i}` })), (i: number) => `own_${i}`],
  ])('loads %s', async (_label, make, idOf) => {
    const file = write('shape.json', make());
    expect(await importFile(t.db, file)).toMatchObject({ inserted: records.length });
    const teachers = await allTeachers();
    expect(teachers.map((x) => x.id).sort()).toEqual(records.map((_r, i) => idOf(i)).sort());
    const one = teachers.find((x) => x.id === idOf(3));
    expect(one).toMatchObject({ name: records[3]?.name, reviews: records[3]?.reviews });
    expect(await importFile(t.db, file)).toMatchObject({ inserted: 0, updated: 0, unchanged: records.length });
  });

  it('updates a changed teacher and replaces its reviews, leaving the others untouched', async () => {
    await importFile(t.db, SHARED_EXPORT);
    const changed = records.map((r, i) =>
      i === 5
        ? { ...r, price_per_hour: 99, languages: ['Klingon'], reviews: [{ reviewer_name: 'Zed', reviewer_rating: 1, comment: 'Meh' }] }
        : i === 6
          ? { ...r, rating: 1, price_per_hour: 11 }
          : r,
    );
    const result = await importFile(t.db, write('changed.json', { teachers: changed }));
    expect(result).toEqual({ inserted: 0, updated: 2, unchanged: records.length - 2, skipped: 0, overwroteEdits: [] });
    const five = (await createTeachersRepository(t.db).getByIds(['5']))[0] as Teacher;
    expect(five.price_per_hour).toBe(99);
    expect(five.reviews).toEqual([{ reviewer_name: 'Zed', reviewer_rating: 1, comment: 'Meh' }]);
    // the list serves the teacher as it is now (its card and language rows were rewritten in the same transaction)
    expect((await allTeachers()).find((x) => x.id === '5')).toEqual(five);
    const repository = createTeachersRepository(t.db);
    const byLanguage = async (language: string) =>
      (JSON.parse((await repository.list('rating', { ...ANY, language }, null, 50)).itemsJson) as Teacher[]).map((x) => x.id);
    expect(await byLanguage('Klingon')).toEqual(['5']);
    for (const language of (records[5] as { languages: string[] }).languages) {
      expect(await byLanguage(language)).not.toContain('5');
    }
    // same languages, new rating and price: the language-filtered lists order and filter it anew
    for (const language of (records[6] as { languages: string[] }).languages) {
      expect((await byLanguage(language)).at(-1)).toBe('6');
      const cheap = JSON.parse((await repository.list('rating', { ...ANY, language, max: 11 }, null, 50)).itemsJson) as Teacher[];
      expect(cheap.map((x) => x.id)).toEqual(['6']);
    }
  });

  it('refuses a broken file naming the record and field, and writes nothing', async () => {
    const broken = records.map((r, i) => (i === 3 ? { ...r, price_per_hour: '25' } : r));
    broken[7] = { ...records[7], levels: ['Z9 Expert'] };
    broken[9] = { ...records[9], name: undefined };
    const file = write('broken.json', { teachers: broken });
    const error = await importFile(t.db, file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    const message = (error as Error).message;
    expect(message).toMatch(/teachers\[3\]\.price_per_hour: .*expected number, received string/i);
    expect(message).toMatch(/teachers\[7\]\.levels\[0\]: /);
    expect(message).toMatch(/teachers\[9\]\.name: /);
    expect(message).toContain('nothing was written');
    expect(await countTeachers(t.db)).toBe(0);
  });

  it('takes a country when a record has one (the original has none), and refuses one that is not a name', async () => {
    const withCountry = records.map((r, i) => (i === 1 ? { ...r, country: ' France ' } : i === 2 ? { ...r, country: null } : r));
    expect(await importFile(t.db, write('country.json', { teachers: withCountry }))).toMatchObject({ inserted: records.length });
    const byId = new Map((await allTeachers()).map((x) => [x.id, x]));
    expect(byId.get('1')?.country).toBe('France');
    expect(byId.get('2')?.country).toBeNull();
    expect(byId.get('0')?.country).toBeNull();

    const broken = records.map((r, i) => (i === 1 ? { ...r, country: 'France1' } : r));
    broken[2] = { ...records[2], country: 'x'.repeat(61) };
    broken[3] = { ...records[3], country: 'Fr\u0000ance' };
    const error = await importFile(t.db, write('bad-country.json', { teachers: broken })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    const message = (error as Error).message;
    expect(message).toMatch(/teachers\[1\]\.country: Invalid country/);
    expect(message).toMatch(/teachers\[2\]\.country: /);
    expect(message).toMatch(/teachers\[3\]\.country: Must not contain control characters/);
  });

  it('refuses control characters naming the record and field (a NUL cannot be stored), keeps line breaks in texts (issue 10, finding 6)', async () => {
    const first = records[0] as { reviews: { comment: string }[] };
    const broken = records.map((r, i) => (i === 2 ? { ...r, name: 'Ja\u0000ne' } : r));
    broken[4] = { ...records[4], experience: 'ten years\u0007' };
    broken[5] = { ...records[5], reviews: [{ ...first.reviews[0], reviewer_name: 'Bo\u0000b' }] };
    const error = await importFile(t.db, write('control.json', { teachers: broken })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    const message = (error as Error).message;
    expect(message).toMatch(/teachers\[2\]\.name: Must not contain control characters/);
    expect(message).toMatch(/teachers\[4\]\.experience: Must not contain control characters/);
    expect(message).toMatch(/teachers\[5\]\.reviews\[0\]\.reviewer_name: Must not contain control characters/);
    expect(await countTeachers(t.db)).toBe(0);
    expect(() => parseExport([{ ...records[0], experience: 'line one\nline two\ttabbed\r\n' }])).not.toThrow();
  });

  it('names keyed records by their key', () => {
    const bad = { teachers: { good: records[0], 'bad-one': { ...records[1], rating: 9 } } };
    expect(() => parseExport(bad)).toThrow(/teachers\.bad-one\.rating: /);
  });

  it.each([
    ['not JSON', '{"teachers": [', /not valid JSON/],
    ['a string', '"hello"', /array of teachers or an object keyed by teacher id/],
    ['an empty array', '[]', /no teachers/],
    ['a non-object record', '[1]', /\[0\]: expected a teacher object, received number/],
    ['a duplicate id', JSON.stringify([{ ...records[0], id: 'x' }, { ...records[1], id: 'x' }]), /\[1\]: duplicate teacher id "x"/],
    ['an unusable key', JSON.stringify({ 'bad key!': records[0] }), /bad key!: "bad key!" cannot be a teacher id/],
  ])('refuses %s', async (_label, text, pattern) => {
    await expect(importFile(t.db, write('bad.json', text))).rejects.toThrow(pattern);
    expect(await countTeachers(t.db)).toBe(0);
  });

  it('skips null entries (deleted slots of a realtime-database array)', async () => {
    const file = write('sparse.json', [records[0], null, records[2]]);
    expect(await importFile(t.db, file)).toEqual({ inserted: 2, updated: 0, unchanged: 0, skipped: 1, overwroteEdits: [] });
    expect((await allTeachers()).map((x) => x.id).sort()).toEqual(['0', '2']);
  });
});
