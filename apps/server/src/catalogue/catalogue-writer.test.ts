import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { ensureCatalogueStatistics, insertNewTeachers } from './catalogue-writer.js';
import { generateTeachers } from './generator.js';

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
    await t.db.orm.transaction((tx) => insertNewTeachers(tx, [...generateTeachers(1, 50)]));
    expect(await hasStatistics()).toBe(false);
    expect(await ensureCatalogueStatistics(t.db)).toBe(true);
    expect(await hasStatistics()).toBe(true);
    expect(await ensureCatalogueStatistics(t.db)).toBe(false);
  });
});
