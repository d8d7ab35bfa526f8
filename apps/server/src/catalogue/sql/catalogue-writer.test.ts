import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../config/paths.js';
import { createTeachersRepository } from './teachers-repository.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../../test/db.js';
import { ensureCatalogueStatistics, insertNewRecords, upsertRecords } from './catalogue-writer.js';
import { generateTeachers } from '../profiles/generator.js';
import { seedGenerated } from '../profiles/seed.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.drop();
});

const hasStatistics = async () => {
  const [row] = await t.db.rows<{ n: number }>(
    sql`select count(*)::int as n from pg_stats where schemaname = current_schema() and tablename = 'teacher'`,
  );
  return (row?.n ?? 0) > 0;
};

describe('ensureCatalogueStatistics', () => {
  it('does nothing for an empty catalogue', async () => {
    expect(await ensureCatalogueStatistics(t.db)).toBe(false);
  });

  it('analyses a catalogue that has rows but no planner statistics, once', async () => {
    await t.db.orm.transaction((tx) => insertNewRecords(tx, [...generateTeachers(1, 50)]));
    expect(await hasStatistics()).toBe(false);
    expect(await ensureCatalogueStatistics(t.db)).toBe(true);
    expect(await hasStatistics()).toBe(true);
    expect(await ensureCatalogueStatistics(t.db)).toBe(false);
  });

  it.each(['teacher_language', 'teacher_name'])(
    'wants statistics for %s too (a catalogue loaded without them plans badly)',
    async (table) => {
      await t.db.rows(sql`truncate teacher cascade`);
      await t.db.orm.transaction((tx) => insertNewRecords(tx, [...generateTeachers(1, 50)]));
      await t.db.rows(sql`analyze teacher`);
      await t.db.rows(sql`analyze teacher_language`);
      await t.db.rows(sql`analyze teacher_search`);
      await t.db.rows(sql`analyze teacher_name`);
      // as after a migration that adds the table to a catalogue analysed before it
      await t.db.rows(sql`delete from pg_statistic where starelid = ${table}::regclass`);
      expect(await ensureCatalogueStatistics(t.db)).toBe(true);
      const [row] = await t.db.rows<{ n: number }>(
        sql`select count(*)::int as n from pg_stats where schemaname = current_schema() and tablename = ${table}`,
      );
      expect(row?.n ?? 0).toBeGreaterThan(0);
    },
  );
});

describe('teacher cards', () => {
  it("migration 0003's backfill writes the same cards as the catalogue writer", async () => {
    await t.db.rows(sql`truncate teacher cascade`);
    await seedGenerated(t.db, 80);
    const written = await t.db.rows<{ teacher_id: string; json: string }>(
      sql`select teacher_id, json from teacher_card order by teacher_id`,
    );
    expect(written).toHaveLength(80);
    // every card is the teacher as the by-id read returns it (the rows themselves)
    const repository = createTeachersRepository(t.db);
    const stored = new Map((await repository.getByIds(written.map((c) => c.teacher_id))).map((x) => [x.id, x]));
    for (const card of written) expect(JSON.parse(card.json)).toEqual(stored.get(card.teacher_id));

    // an existing catalogue migrated to 0003: its last statement fills teacher_card
    const migration = fs.readFileSync(path.join(migrationsFolder, '0003_teacher-card.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').at(-1) as string;
    expect(backfill).toMatch(/INSERT INTO "teacher_card"/);
    await t.db.rows(sql`delete from teacher_card`);
    await t.db.rows(sql.raw(backfill));
    // then migration 0012's: every card gains the country, null (none had one before it)
    const country = fs.readFileSync(path.join(migrationsFolder, '0012_teacher-country.sql'), 'utf8');
    const addCountry = country.split('--> statement-breakpoint').find((part) => part.includes('UPDATE "teacher_card"')) as string;
    await t.db.rows(sql.raw(addCountry));
    const migrated = await t.db.rows<{ teacher_id: string; json: string }>(sql`select teacher_id, json from teacher_card order by teacher_id`);
    expect(migrated.map((card) => [card.teacher_id, JSON.parse(card.json) as unknown])).toEqual(
      written.map((card) => [card.teacher_id, { ...(JSON.parse(card.json) as object), country: null }]),
    );
    // the field's place too: last, as in teacherSchema
    for (const card of migrated) expect(Object.keys(JSON.parse(card.json) as object).at(-1)).toBe('country');
  });

  it("teacher_language holds one row per teacher and language, as migration 0004's backfill writes them", async () => {
    await t.db.rows(sql`truncate teacher cascade`);
    const records = [...generateTeachers(1, 40)];
    // a language listed twice is one row
    records[0] = { ...(records[0] as (typeof records)[number]), languages: ['French', 'French', 'German'] };
    await t.db.orm.transaction((tx) => insertNewRecords(tx, records));
    const rowsNow = () =>
      t.db.rows<Record<string, unknown>>(
        sql`select teacher_id, language, rating, price_per_hour, levels from teacher_language order by teacher_id, language`,
      );
    const written = await rowsNow();
    const expected = records
      .flatMap((r) => [...new Set(r.languages)].map((language) => [r.id, language, r.rating, r.price_per_hour, r.levels]))
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || (String(a[1]) < String(b[1]) ? -1 : 1));
    expect(written.map((w) => [w.teacher_id, w.language, w.rating, w.price_per_hour, w.levels])).toEqual(expected);

    const migration = fs.readFileSync(path.join(migrationsFolder, '0004_teacher-language.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((part) => part.includes('INSERT INTO')) as string;
    await t.db.rows(sql`delete from teacher_language`);
    await t.db.rows(sql.raw(backfill));
    expect(await rowsNow()).toEqual(written);
  });
});

describe('teacher names (decision 095)', () => {
  const names = async () =>
    (await t.db.rows<{ name_text: string }>(sql`select name_text from teacher_name order by name_text`)).map((r) => r.name_text);
  const searchNames = async () =>
    (await t.db.rows<{ name_text: string }>(sql`select distinct name_text from teacher_search order by name_text`)).map(
      (r) => r.name_text,
    );

  it('holds every distinct search name once, as migration 0008’s backfill writes them', async () => {
    await t.db.rows(sql`truncate teacher cascade`);
    await t.db.rows(sql`delete from teacher_name`);
    await seedGenerated(t.db, 120);
    const written = await names();
    expect(written.length).toBeGreaterThan(20);
    expect(written.length).toBeLessThan(120); // generated names repeat: one row each
    expect(written).toEqual(await searchNames());

    const migration = fs.readFileSync(path.join(migrationsFolder, '0008_search-names.sql'), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').find((part) => part.includes('INSERT INTO')) as string;
    await t.db.rows(sql`delete from teacher_name`);
    await t.db.rows(sql.raw(backfill));
    expect(await names()).toEqual(written);
  });

  it('follows renames: a new name is added, an old one goes when no teacher carries it any more', async () => {
    await t.db.rows(sql`truncate teacher cascade`);
    await t.db.rows(sql`delete from teacher_name`);
    const [a, b, c] = [...generateTeachers(1, 3)].map((record, i) => ({
      ...record,
      ...[
        { name: 'Ana', surname: 'Silva' },
        { name: 'Ana', surname: 'Silva' },
        { name: 'Mei', surname: 'Wang' },
      ][i],
    }));
    if (!a || !b || !c) throw new Error('three teachers');
    await t.db.orm.transaction((tx) => insertNewRecords(tx, [a, b, c]));
    expect(await names()).toEqual(['ana silva', 'mei wang']);

    // one of two Ana Silvas renamed: both names stay
    await t.db.orm.transaction((tx) => upsertRecords(tx, [{ ...a, surname: 'Li' }]));
    expect(await names()).toEqual(['ana li', 'ana silva', 'mei wang']);
    // the only Mei Wang renamed, with accents: her old name goes
    await t.db.orm.transaction((tx) => upsertRecords(tx, [{ ...c, name: 'Léa', surname: 'Dubois' }]));
    expect(await names()).toEqual(['ana li', 'ana silva', 'lea dubois']);
    // rewritten unchanged: nothing moves
    await t.db.orm.transaction((tx) => upsertRecords(tx, [b]));
    expect(await names()).toEqual(await searchNames());
  });

  it.skipIf(testEngine !== 'postgres')(
    'one writer of the names at a time: a rename keeps a name another writer is giving a new teacher (PostgreSQL only: PGlite has one connection, so writers never overlap)',
    async () => {
      await t.db.rows(sql`truncate teacher cascade`);
      await t.db.rows(sql`delete from teacher_name`);
      const [x, y] = [...generateTeachers(1, 2)].map((record) => ({ ...record, name: 'Ana', surname: 'Silva' }));
      if (!x || !y) throw new Error('two teachers');
      await t.db.orm.transaction((tx) => insertNewRecords(tx, [x]));

      // B adds a second Ana Silva and holds its transaction open
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let wrote = () => {};
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const b = t.db.orm.transaction(async (tx) => {
        await insertNewRecords(tx, [y]);
        wrote();
        await held;
      });
      await Promise.race([written, b]);
      // A renames the only committed Ana Silva meanwhile: it must wait for B (the lock), or it
      // would see no other Ana Silva, remove the name, and B's teacher would never be found by it
      let settled = false;
      const a = t.db.orm.transaction((tx) => upsertRecords(tx, [{ ...x, surname: 'Li' }])).finally(() => (settled = true));
      const waitingForLock = async () => {
        for (let tries = 0; tries < 250 && !settled; tries += 1) {
          const [row] = await t.db.rows<{ n: number }>(
            sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted
                and database = (select oid from pg_database where datname = current_database())`,
          );
          if ((row?.n ?? 0) > 0) return 'A waits for B' as const;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        if (settled) return 'A finished first' as const;
        throw new Error('A neither finished nor waited');
      };
      let first: string;
      try {
        first = await Promise.race([a.then(() => 'A finished first' as const), waitingForLock()]);
      } finally {
        // B commits whatever happened, and A goes on
        release();
        await b;
        await a;
      }
      expect(first).toBe('A waits for B');
      expect(await names()).toEqual(['ana li', 'ana silva']);
      expect(await names()).toEqual(await searchNames());
    },
  );
});
