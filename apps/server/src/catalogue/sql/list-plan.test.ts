import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGenerated } from '../profiles/seed.js';
import { openDatabase } from '../../db/client.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../../test/db.js';
import { SORTS } from '@learnlingo/contract';
import { parseTerms } from '../memory/search-index.js';
import { SORT_ORDERS } from '../model/sort-orders.js';
import {
  createTeachersRepository,
  LIST_STATEMENTS,
  CARDS_STATEMENT,
  NAME_MATCHES_STATEMENT,
  SEARCH_NAME_PAGE_STATEMENT,
  SEARCH_STATEMENTS,
  SEARCH_WALK_STATEMENTS,
  SEARCH_WALK_TOP_STATEMENT,
  SEARCH_PARAMS,
  listParams,
  type ListFilters,
} from './teachers-repository.js';
import { TAG_FILTERS } from '../model/registry.js';

// The catalogue list's statements (LIST_STATEMENTS, one per order, and SEARCH_STATEMENTS) runs its generic plan on PostgreSQL
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

/**
 * A plan without the look-ups of the search words in the vocabulary (decision 108): an
 * InitPlan or SubPlan that reads teacher_word and no catalogue table, computed once per
 * execution on a table of distinct words (a seq scan of a few hundred words here), is left
 * out, so what the checks see is how the statement reads the catalogue.
 */
function withoutVocabulary(plan: string): string {
  // a line not indented continues the one before (a literal with a line break in it)
  const lines = plan.split('\n').reduce<string[]>((all, line) => {
    if (all.length > 0 && !line.startsWith(' ')) all[all.length - 1] += `\n${line}`;
    else all.push(line);
    return all;
  }, []);
  const indent = (line: string) => line.length - line.trimStart().length;
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] as string;
    if (/^\s*(InitPlan|SubPlan)\b/.test(line)) {
      let end = i + 1;
      while (end < lines.length && indent(lines[end] as string) > indent(line)) end += 1;
      const subtree = lines.slice(i + 1, end).join('\n');
      if (subtree.includes('teacher_word') && !/\bon teacher(_search|_card|_language|_name)?\b/.test(subtree)) {
        i = end - 1;
        continue;
      }
    }
    kept.push(line);
  }
  return kept.join('\n');
}

/** The text of EXPLAIN for a statement prepared in a transaction, executed with these arguments. */
async function explain(statement: string, args: string): Promise<string> {
  return t.db.orm.transaction(async (tx) => {
    await tx.execute(sql.raw(`prepare list_plan_check as ${statement}`));
    try {
      const result: unknown = await tx.execute(sql.raw(`explain execute list_plan_check(${args})`));
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
      return withoutVocabulary(rows.map((r) => Object.values(r).join('')).join('\n'));
    } finally {
      await tx.execute(sql`deallocate list_plan_check`);
    }
  });
}

const ANY = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };

const literal = (value: string | number) => (typeof value === 'number' ? String(value) : `'${value}'`);

/**
 * A search statement's arguments for EXPLAIN, by parameter name (SEARCH_PARAMS' order):
 * every tag filter '' (any) and no price bound unless given.
 */
function searchArgs(values: Partial<Record<string, string | number>>): string {
  const defaults: Record<string, string> = { price_min: '-Infinity', price_max: 'Infinity' };
  return SEARCH_PARAMS.map((name) => literal(values[name] ?? defaults[name] ?? '')).join(', ');
}

/** A list statement's arguments for EXPLAIN: each parameter (listParams) an array of one value per call. */
function listArgs(order: (typeof SORT_ORDERS)[keyof typeof SORT_ORDERS], calls: Partial<Record<string, string | number>>[]): string {
  const start = order.cursorType === 'int8' ? order.start : String(order.start);
  const defaults: Record<string, string | number> = { price_min: '-Infinity', price_max: 'Infinity', after_k: start, after_id: '', lim: 5 };
  return listParams(order)
    .map(([name, type]) => `array[${calls.map((call) => literal(call[name] ?? defaults[name] ?? '')).join(', ')}]::${type}[]`)
    .join(', ');
}

describe('the catalogue list statements', () => {
  const indexed = SORTS.filter((sort) => SORT_ORDERS[sort].indexes !== null);

  it.each(indexed)(
    "%s: a generic plan on the order's covering indexes and the cards' primary key: no table scan, no sort",
    async (sort) => {
      const order = SORT_ORDERS[sort];
      const indexes = order.indexes as { teacher: string; teacherLanguage: string };
      const start = order.cursorType === 'int8' ? order.start : `${order.start}`;
      // every tag filter set in the first call (the registry's), none in the second
      const set = Object.fromEntries(TAG_FILTERS.map((filter) => [filter, { language: 'English', level: 'B1 Intermediate', country: 'Canada' }[filter]]));
      const plan = await explain(
        LIST_STATEMENTS[sort] as string,
        listArgs(order, [
          { ...set, price_min: 20, price_max: 40, after_k: start, lim: 5 },
          { after_k: 40, after_id: 't000050', lim: 11 },
        ]),
      );
      // each branch: its pages read in the order from an index, stopped by the LIMIT
      expect(plan).toMatch(
        new RegExp(`One-Time Filter: \\(p\\.language = ''::text\\)\\s*->\\s+Index Only Scan (Backward )?using ${indexes.teacher}`),
      );
      expect(plan).toMatch(
        new RegExp(
          `One-Time Filter: \\(p\\.language <> ''::text\\)\\s*->\\s+Index Only Scan (Backward )?using ${indexes.teacherLanguage}`,
        ),
      );
      if (order.direction === 'desc' && sort === 'price-desc') expect(plan).toContain('Index Only Scan Backward');
      expect(plan).not.toMatch(/->\s+Sort\b/);
      expect(plan).toContain('Index Scan using teacher_card_pkey');
      expect(plan).not.toMatch(/Seq Scan|Bitmap|Hash/);
    },
  );

  it.each(SORTS)('%s with a search: the matches come from the search indexes, only they are sorted', async (sort) => {
    const order = SORT_ORDERS[sort];
    const start = order.cursorType === 'int8' ? order.start : `${order.start}`;
    const plan = await explain(
      SEARCH_STATEMENTS[sort],
      searchArgs({ q: 'pronunciation', words: 'pronunciation:*', after_k: start, rows: 5 }),
    );
    expect(plan).toContain('teacher_search_document_idx');
    expect(plan).toContain('teacher_search_name_trgm_idx');
    expect(plan).not.toMatch(/Seq Scan on teacher_search|Seq Scan on teacher\b/);
    expect(plan).toContain('Index Scan using teacher_card_pkey');
  });

  it.each(indexed)(
    "%s, a following page of a common search (the walk): the order's indexes in order, each teacher's search row by primary key",
    async (sort) => {
      const order = SORT_ORDERS[sort];
      const indexes = order.indexes as { teacher: string; teacherLanguage: string };
      const plan = await explain(
        SEARCH_WALK_STATEMENTS[sort],
        searchArgs({ q: 'lesson', words: 'lesson', after_k: order.cursorType === 'int8' ? 40 : '40', after_id: 't001000', rows: 5 }),
      );
      expect(plan).toMatch(new RegExp(`Index Only Scan (Backward )?using ${indexes.teacher}`));
      expect(plan).toMatch(new RegExp(`Index Only Scan (Backward )?using ${indexes.teacherLanguage}`));
      expect(plan).toContain('Index Scan using teacher_search_pkey');
      expect(plan).not.toMatch(/->\s+Sort\b|Seq Scan|Bitmap|Hash/);
    },
  );

  it('relevance, a following page past the name matches (the walk): teacher_search backwards by primary key', async () => {
    const plan = await explain(SEARCH_WALK_STATEMENTS.relevance, searchArgs({ q: 'lesson', words: 'lesson', after_k: '0', after_id: 't001000', rows: 5 }));
    expect(plan).toContain('Index Scan Backward using teacher_search_pkey');
    expect(plan).not.toMatch(/->\s+Sort\b|Seq Scan|Bitmap|Hash/);
  });

  it('relevance, a following page among the name matches: the trigram index only, no document scan', async () => {
    const plan = await explain(SEARCH_NAME_PAGE_STATEMENT, searchArgs({ q: 'chloe', words: 'chloe', after_k: '0.9', after_id: 't001000', rows: 5 }));
    expect(plan).toContain('teacher_search_name_trgm_idx');
    expect(plan).not.toMatch(/teacher_search_document_idx|Seq Scan/);
  });

  it.each(SORTS)('%s: the walk gives the following pages the search statement gives', async (sort) => {
    const repository = createTeachersRepository(t.db);
    // "lea": the Léa teachers are name matches (first in relevance) and mostly document
    // matches too (learner, learning…), which the walk past them must not list again
    const searches: [ListFilters, number][] = [
      [{ ...ANY, q: 'lesson' }, 9],
      [{ ...ANY, q: 'lea' }, 25],
      [{ ...ANY, q: 'pronunciation', language: 'English' }, 9],
      [{ ...ANY, q: 'chloe', level: 'B1 Intermediate' }, 9],
      [{ q: 'grammar', min: 25, max: 45 }, 9],
    ];
    let compared = 0;
    for (const [filters, limit] of searches) {
      let after = null;
      for (let page = 0; page < 6; page += 1) {
        const full = await repository.search(sort, filters, after, limit);
        if (after) {
          // universe 0: the walk whatever the density (relevance: past the name matches;
          // among them, the name matches alone, or the search statement at their end)
          const counted = { ...full.counts, version: 0 };
          const walked = await repository.search(sort, filters, after, limit, { counted, universe: 0 });
          expect(walked.itemsJson, `${filters.q} page ${page}`).toBe(full.itemsJson);
          expect(walked.next, `${filters.q} page ${page}`).toEqual(full.next);
          expect(walked.counts).toEqual(full.counts);
          compared += 1;
        }
        if (!full.next) break;
        after = full.next;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(15);
  });

  it.each(SORTS)('%s: a first page with its counts known (decision 094) is the search statement’s', async (sort) => {
    const repository = createTeachersRepository(t.db);
    const index = await repository.searchIndex();
    let walked = 0;
    for (const filters of [
      { ...ANY, q: 'lesson' },
      { ...ANY, q: 'lea' },
      { ...ANY, q: 'pronunciation', language: 'English' },
      { q: 'grammar', min: 25, max: 45 },
    ] satisfies ListFilters[]) {
      const limit = 6;
      const full = await repository.search(sort, filters, null, limit);
      const read = await repository.nameMatches(filters);
      expect(read, filters.q).not.toBeNull();
      const names = read as NonNullable<typeof read>;
      const terms = parseTerms(names.terms);
      expect(terms, filters.q).not.toBeNull();
      const { q: _q, ...rest } = filters;
      const counted = index.counts(terms ?? [], names.names, rest, sort === 'relevance');
      expect(counted, filters.q).toEqual(full.counts);
      // universe 0: the walk whatever the density (relevance: after the page's name matches)
      const namePage = sort === 'relevance' ? (index.namePage(names.names, rest, null, limit + 1) ?? undefined) : undefined;
      const known = await repository.search(sort, filters, null, limit, { counted, universe: 0, namePage });
      expect(known.itemsJson, filters.q).toBe(full.itemsJson);
      expect(known.next, filters.q).toEqual(full.next);
      walked += 1;
    }
    expect(walked).toBe(4);
  });

  it('relevance, a first page past its name matches: teacher_search backwards by primary key, from the top', async () => {
    const plan = await explain(SEARCH_WALK_TOP_STATEMENT, searchArgs({ q: 'lesson', words: 'lesson', after_k: '0', rows: 5 }));
    expect(plan).toContain('Index Scan Backward using teacher_search_pkey');
    expect(plan).not.toMatch(/->\s+Sort\b|Seq Scan|Bitmap|Hash/);
  });

  it('a search’s name matches: among the distinct names, by their trigram index', async () => {
    // a few hundred names here: without migration 0009's costs PostgreSQL scanned them all
    const [names] = await t.db.rows<{ n: number }>(sql`select count(*)::int as n from teacher_name`);
    expect(names?.n).toBeGreaterThan(300);
    const plan = await explain(NAME_MATCHES_STATEMENT, `'chloe', 'chloe'`);
    expect(plan).toContain('teacher_name_trgm_idx');
    expect(plan).not.toMatch(/teacher_search|Seq Scan/);
  });

  it('cards by id: by the cards’ primary key', async () => {
    const plan = await explain(CARDS_STATEMENT, `array['t000001', 't000002']`);
    expect(plan).toContain('Index Scan using teacher_card_pkey');
    expect(plan).not.toMatch(/Seq Scan on teacher_card|Hash/);
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
        await repository.list('rating', { ...ANY, language: 'English' }, null, 4);
        await repository.list('rating', { ...ANY, level: 'A1 Beginner' }, { value: 4.5, id: 't000050' }, 4);
        const statements = await one.rows<{ generic: number; custom: number }>(
          sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements
              where statement like ${`%with ordinality as p(${listParams(SORT_ORDERS.rating).map(([name]) => name).join(', ')}, i)%`}`,
        );
        expect(statements).toEqual([{ generic: 2, custom: 0 }]);
        await repository.search('relevance', { ...ANY, q: 'schmit' }, null, 4);
        await repository.search('relevance', { ...ANY, q: 'chloe' }, null, 4);
        const searches = await one.rows<{ generic: number }>(
          sql`select generic_plans::int as generic from pg_prepared_statements where statement like '%matched as materialized%'`,
        );
        expect(searches).toEqual([{ generic: 2 }]);
      } finally {
        await one.close();
      }
    },
  );

  it('a teacher whose card is missing is still listed, as it is, and paging goes on past it', async () => {
    const repository = createTeachersRepository(t.db);
    const first = await repository.list('rating', ANY, null, 4);
    const listed = JSON.parse(first.itemsJson) as { id: string }[];
    const victim = listed[2]?.id as string;
    await t.db.rows(sql`delete from teacher_card where teacher_id = ${victim}`);
    const again = await repository.list('rating', ANY, null, 4);
    expect(again.itemsJson).toBe(first.itemsJson);
    expect(again.next).toEqual(first.next);
    expect((JSON.parse(again.itemsJson) as unknown[])[2]).toEqual((await repository.getByIds([victim]))[0]);
  });
});
