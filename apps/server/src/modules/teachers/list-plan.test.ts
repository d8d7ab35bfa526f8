import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGenerated } from '../../catalogue/seed.js';
import { openDatabase } from '../../db/client.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../../test/db.js';
import { createTeachersRepository, LIST_STATEMENT } from './teachers-repository.js';

// The catalogue list's one statement (LIST_STATEMENT) runs its generic plan on PostgreSQL
// (prepared once per connection, see db/client.ts). On a handful of rows any plan is fine
// and the planner rightly scans tables; this catalogue is large enough for the planner to
// choose as it does on 100,000 teachers.
const COUNT = 2000;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await seedGenerated(t.db, COUNT);
}, 120_000);
afterAll(async () => {
  await t.drop();
});

describe('the catalogue list statement', () => {
  it("has a generic plan on the covering index and the cards' primary key: no table scan, no sort of the matches", async () => {
    const plan = await t.db.orm.transaction(async (tx) => {
      await tx.execute(sql.raw(`prepare list_plan_check as ${LIST_STATEMENT}`));
      try {
        const result: unknown = await tx.execute(
          sql.raw(`explain execute list_plan_check(array['English', ''], array['B1 Intermediate', ''],
            array[40, 'Infinity']::float8[], array['Infinity', 4.5]::float8[], array['', 't000050'], array[5, 11])`),
        );
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
        return rows.map((r) => Object.values(r).join('')).join('\n');
      } finally {
        await tx.execute(sql`deallocate list_plan_check`);
      }
    });
    // each branch: its pages read in list order from an index, stopped by the LIMIT
    expect(plan).toMatch(/One-Time Filter: \(p\.language = ''::text\)\s*->\s+Index Only Scan using teacher_list_order_idx/);
    expect(plan).toMatch(
      /One-Time Filter: \(p\.language <> ''::text\)\s*->\s+Index Only Scan using teacher_language_list_idx/,
    );
    expect(plan).not.toMatch(/->\s+Sort\b/);
    expect(plan).toContain('Index Scan using teacher_card_pkey');
    expect(plan).not.toMatch(/Seq Scan|Bitmap|Hash/);
  });

  it('runs on connections with generic plans and without JIT', async () => {
    const [settings] = await t.db.rows<{ plan_cache_mode: string; jit: string }>(
      sql`select current_setting('plan_cache_mode') as plan_cache_mode, current_setting('jit') as jit`,
    );
    expect(settings).toEqual({ plan_cache_mode: 'force_generic_plan', jit: 'off' });
  });

  it.skipIf(testEngine !== 'postgres')(
    'is a named statement on PostgreSQL, planned once per connection (PostgreSQL only: PGlite has no named statements)',
    async () => {
      const one = await openDatabase({ engine: 'postgres', url: t.url as string, max: 1 });
      try {
        const repository = createTeachersRepository(one);
        await repository.list({ language: 'English' }, null, 4);
        await repository.list({ level: 'A1 Beginner' }, { rating: 4.5, id: 't000050' }, 4);
        const statements = await one.rows<{ generic: number; custom: number }>(
          sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
              where statement like '%with ordinality as p(language, level, price, after_rating, after_id, lim, i)%'`,
        );
        expect(statements).toEqual([{ generic: 2, custom: 0 }]);
      } finally {
        await one.close();
      }
    },
  );

  it('a teacher whose card is missing is still listed, as it is, and paging goes on past it', async () => {
    const repository = createTeachersRepository(t.db);
    const first = await repository.list({}, null, 4);
    const listed = JSON.parse(first.itemsJson) as { id: string }[];
    const victim = listed[2]?.id as string;
    await t.db.rows(sql`delete from teacher_card where teacher_id = ${victim}`);
    const again = await repository.list({}, null, 4);
    expect(again.itemsJson).toBe(first.itemsJson);
    expect(again.next).toEqual(first.next);
    expect((JSON.parse(again.itemsJson) as unknown[])[2]).toEqual(await repository.getById(victim));
  });
});
