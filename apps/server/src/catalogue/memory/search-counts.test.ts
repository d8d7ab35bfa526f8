import { readFileSync } from 'node:fs';
import { facetsSchema, SORTS, teachersPageSchema, type Sort } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEntries, parseExport } from '../profiles/import.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createTeachersRepository, type ListFilters } from '../sql/teachers-repository.js';
import { facetOf, TAG_FILTERS, type TagFilter } from '../model/registry.js';
import { pairwise } from '../../test/catalogue-model.js';

// A search's first page takes its total and facet counts from the search index (decision
// 094), not from a count of its matches in the database. Here every first page and every
// facet count the app answers is checked against the search statements' own count and page
// (the database's answer, decisions 040 and 042), on both engines: the index must agree
// with PostgreSQL's full-text and trigram matching exactly.
let t: TestApp;
let repository: ReturnType<typeof createTeachersRepository>;

/** A teacher named "Lesson" (a word in most documents): a name match that a first relevance page lists before the rest. */
function namedLesson() {
  const real = JSON.parse(readFileSync(new URL('../../../../../../shared/data/teachers.json', import.meta.url), 'utf8')) as {
    teachers: Record<string, unknown>[];
  };
  const [first, second] = real.teachers;
  return parseExport({
    teachers: [
      { ...first, id: 'zz-lesson', name: 'Lesson', surname: 'Marple' },
      // a language and a level listed twice: counted once (the importer keeps what it is given)
      {
        ...second,
        id: 'aa-lesson',
        name: 'Lesson',
        surname: 'Dubois',
        languages: ['English', 'English'],
        levels: ['A1 Beginner', 'A1 Beginner', 'C1 Advanced'],
      },
    ],
  }).entries;
}

beforeAll(async () => {
  t = await createTestApp({ seed: 100, env: { CATALOGUE_CACHE_ENTRIES: '0' } });
  await importEntries(t.db, namedLesson());
  repository = createTeachersRepository(t.db);
}, 120_000);
afterAll(() => t.close());

const QUERIES = ['less', 'pron', 'ʼabc', 'ŉ', 'abcː', 'Марʼяна', '⑴ lesson', 'chloe', 'CHLOÉ', 'schmit', 'müller', 'joão', 'lea dubois', 'lesson', 'pronunciation spanish', 'gram', 'a', 'zzzzqq', '!!!'];
/**
 * Filter sets from the registry: none, then the tag filters (registry.ts) shared out between
 * two sets with the price range in the second, each with a value many teachers have — every
 * filter is in some query, with the others and in both directions of the URL's case.
 */
const SAMPLE: Record<TagFilter, string> = { language: 'English', level: 'C1 Advanced', country: 'United Kingdom' };
const FILTERS: [string, Omit<ListFilters, 'q'>][] = [
  ['', { min: -Infinity, max: Infinity }],
  ...[0, 1].map((half): [string, Omit<ListFilters, 'q'>] => {
    const tags = TAG_FILTERS.filter((_, i) => i % 2 === half);
    const filters: Omit<ListFilters, 'q'> = half === 1 ? { min: 25, max: 45 } : { min: -Infinity, max: Infinity };
    const query = new URLSearchParams();
    for (const filter of tags) {
      filters[filter] = SAMPLE[filter];
      query.set(filter, half === 0 ? SAMPLE[filter].toLowerCase() : SAMPLE[filter]);
    }
    if (half === 1) {
      query.set('price_min', '25');
      query.set('price_max', '45');
    }
    return [`&${query}`, filters];
  }),
];

/** The queries × filter sets (× orders): pairwise, each query with each filter set and each order. */
const firstPages = (sorts: readonly Sort[]) =>
  pairwise<unknown>([QUERIES, FILTERS, sorts]).map(([q, filters, sort]) => ({
    q: q as string,
    filters: filters as (typeof FILTERS)[number],
    sort: sort as Sort,
  }));

describe('first pages of a search: the index counts what the search statement counts', () => {
  it('every query × filters × order (pairwise): the same page and total', async () => {
    for (const { q, filters: [query, filters], sort } of firstPages(SORTS)) {
      const limit = 4;
      const res = await t.app.inject({ method: 'GET', url: `/api/teachers?q=${encodeURIComponent(q)}&sort=${sort}&limit=${limit}${query}` });
      expect(res.statusCode, res.body).toBe(200);
      const page = teachersPageSchema.strict().parse(res.json());
      const statement = await repository.search(sort, { q, ...filters }, null, limit, null);
      const label = `${q} ${sort} ${query}`;
      expect(page.total, label).toBe(statement.counts.total);
      expect(page.items.map((item) => item.id), label).toEqual(
        (JSON.parse(statement.itemsJson) as { id: string }[]).map((item) => item.id),
      );
      expect(page.nextCursor === null, label).toBe(statement.next === null);
    }
  });

  it('a first relevance page: the name matches, then the teachers whose text has the word, by id from the top', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/teachers?q=lesson&limit=5' });
    const page = teachersPageSchema.strict().parse(res.json());
    expect(page.items.map((item) => item.id).slice(0, 2)).toEqual(['zz-lesson', 'aa-lesson']);
    const statement = await repository.search('relevance', { q: 'lesson', min: -Infinity, max: Infinity }, null, 5, null);
    expect(page.items.map((item) => item.id)).toEqual((JSON.parse(statement.itemsJson) as { id: string }[]).map((item) => item.id));
    expect(page.total).toBe(statement.counts.total);
  });
});

describe('a search page after page: the pages from the index (decision 095) are the statements’', () => {
  // both directions of a value order and relevance (SearchIndex.page's other orders are
  // checked against a model in search-index.test.ts)
  it('every query × filters × order (pairwise)', async () => {
    let pages = 0;
    for (const { q, filters: [query, filters], sort } of firstPages(['rating', 'price-asc', 'relevance'])) {
      const limit = 3;
      const label = `${q} ${query}`;
      const fromApp: string[] = [];
      const fromStatements: string[] = [];
      let cursor: string | null = null;
      let after = null;
      for (let n = 0; n < 5; n++) {
        const url: string = `/api/teachers?q=${encodeURIComponent(q)}&sort=${sort}&limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, res.body).toBe(200);
        const page = teachersPageSchema.strict().parse(res.json());
        const statement = await repository.search(sort, { q, ...filters }, after, limit, null);
        fromApp.push(...page.items.map((item) => item.id));
        fromStatements.push(...(JSON.parse(statement.itemsJson) as { id: string }[]).map((item) => item.id));
        expect(page.nextCursor === null, `${label} page ${n}`).toBe(statement.next === null);
        pages += 1;
        if (page.nextCursor === null || statement.next === null) break;
        cursor = page.nextCursor;
        after = statement.next;
      }
      expect(fromApp, label).toEqual(fromStatements);
    }
    expect(pages).toBeGreaterThan(80);
  });
});

describe('facet counts of a search: the index counts what the facets statement counts', () => {
  it('every query × filters', async () => {
    for (const q of QUERIES) {
      for (const [query, filters] of FILTERS) {
        const res = await t.app.inject({ method: 'GET', url: `/api/teachers/facets?q=${encodeURIComponent(q)}${query}` });
        expect(res.statusCode, res.body).toBe(200);
        const facets = facetsSchema.strict().parse(res.json());
        const statement = await repository.searchFacets({ q, ...filters });
        const label = `${q} ${query}`;
        expect(facets.total, label).toBe(statement.total);
        for (const filter of TAG_FILTERS) {
          const counts = facets.counts[facetOf(filter)];
          expect(Object.keys(counts).length, `${label} ${filter}`).toBeGreaterThan(0);
          for (const [value, n] of Object.entries(counts)) expect(n, `${label} ${value}`).toBe(statement[facetOf(filter)][value] ?? 0);
        }
      }
    }
  });
});
