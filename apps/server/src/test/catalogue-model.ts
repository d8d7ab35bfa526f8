import {
  CATALOGUE_FILTERS,
  teacherSchema,
  teachersPageSchema,
  type Sort,
  type TagValues as TagValuesSpec,
  type Teacher,
} from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { generateTeachers } from '../catalogue/index.js';
import { LIST_STATEMENTS, TAG_FILTERS, valuesOf, type TagFilter } from '../catalogue/index.js';

/** A generated teacher, as the model of the catalogue sees it. */
export type Generated = ReturnType<typeof generateTeachers> extends Generator<infer T> ? T : never;

const byId = (a: Generated, b: Generated) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Each order without a search as the model sees it, ties broken by id in the same direction. */
export const ORDER: Record<Exclude<Sort, 'relevance'>, (a: Generated, b: Generated) => number> = {
  rating: (a, b) => b.rating - a.rating || byId(b, a),
  'price-asc': (a, b) => a.price_per_hour - b.price_per_hour || byId(a, b),
  'price-desc': (a, b) => b.price_per_hour - a.price_per_hour || byId(b, a),
  lessons: (a, b) => b.lessons_done - a.lessons_done || byId(b, a),
};

/**
 * Every page of a query through the app: the teachers in the order served (each checked
 * against the contract: the database builds the page's JSON), their ids, and each page's total.
 */
export async function pageThrough(
  app: FastifyInstance,
  query: URLSearchParams,
  limit: number,
): Promise<{ items: Teacher[]; ids: string[]; totals: number[] }> {
  const items: Teacher[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 200; guard += 1) {
    const q = new URLSearchParams(query);
    q.set('limit', String(limit));
    if (cursor) q.set('cursor', cursor);
    const res = await app.inject({ method: 'GET', url: `/api/teachers?${q}` });
    expect(res.statusCode, `${q} ${res.body}`).toBe(200);
    const page = teachersPageSchema.strict().parse(res.json());
    for (const item of page.items) expect(teacherSchema.strict().parse(item)).toEqual(item);
    items.push(...page.items);
    totals.push(page.total);
    cursor = page.nextCursor;
    if (!cursor) return { items, ids: items.map((item) => item.id), totals };
    expect(page.items).toHaveLength(limit);
  }
  throw new Error('paging did not end');
}

/** Waits until the app's search index is built (it is begun by the first list or search). */
export async function searchIndexBuilt(app: FastifyInstance): Promise<void> {
  await app.inject({ method: 'GET', url: '/api/teachers?limit=1' });
  for (let waited = 0; !(await app.searchIndexReady()); waited += 20) {
    if (waited > 60_000) throw new Error('the search index was not built within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const LISTS = new Set<unknown>(Object.values(LIST_STATEMENTS));
/** How many list statements (LIST_STATEMENTS) ran, as a spy on the database's `statement` saw them. */
export const listStatementsRun = (statement: { mock: { calls: readonly (readonly unknown[])[] } }): number =>
  statement.mock.calls.filter(([text]) => LISTS.has(text)).length;

/**
 * A filter set as the model sees it: each tag filter of the registry (registry.ts) set to a
 * value or not, and the price range's bounds (inclusive) or none.
 */
export type ModelFilters = { [K in TagFilter]?: string | undefined } & { min?: number | undefined; max?: number | undefined };

/** Whether a generated teacher passes these filters: each tag's value among theirs, the price in range. */
export const passes = (g: Generated, f: ModelFilters): boolean =>
  TAG_FILTERS.every((filter) => f[filter] === undefined || valuesOf(g, filter).includes(f[filter] as string)) &&
  (f.min === undefined || g.price_per_hour >= f.min) &&
  (f.max === undefined || g.price_per_hour <= f.max);

/** The URL query of these filters, in the contract's names (CATALOGUE_FILTERS). */
export function filterQuery(f: ModelFilters): URLSearchParams {
  const query = new URLSearchParams();
  for (const filter of TAG_FILTERS) if (f[filter] !== undefined) query.set(filter, f[filter] as string);
  if (f.min !== undefined) query.set(CATALOGUE_FILTERS.price.min, String(f.min));
  if (f.max !== undefined) query.set(CATALOGUE_FILTERS.price.max, String(f.max));
  return query;
}

/** A value no teacher has, for every tag filter that takes names (a level must be one of LEVELS). */
export const NOBODY = 'Atlantis';

/**
 * Each tag filter's values to try: none, every value the generated teachers have (a level:
 * every level), and one nobody has where the filter takes any name.
 */
export function tagValues(generated: readonly Generated[]): Record<TagFilter, (string | undefined)[]> {
  return Object.fromEntries(
    TAG_FILTERS.map((filter) => {
      const values: TagValuesSpec = CATALOGUE_FILTERS[filter].values;
      const present =
        values.kind === 'fixed'
          ? [...values.values]
          : [...new Set(generated.flatMap((g) => valuesOf(g, filter)))].sort();
      return [filter, [undefined, ...present, ...(values.kind === 'fixed' ? [] : [NOBODY])]];
    }),
  ) as Record<TagFilter, (string | undefined)[]>;
}

/** Price ranges to try: none, a minimum, a maximum, both. */
export const PRICE_RANGES: readonly [number | undefined, number | undefined][] = [
  [undefined, undefined],
  [30, undefined],
  [undefined, 25],
  [20, 45],
];

/**
 * A pairwise covering of these dimensions (deterministic, greedy): rows of one value per
 * dimension such that every pair of values of any two dimensions is in some row. Each
 * filter and each order is then proved against every value of every other one, in about
 * (largest × second largest) rows instead of the product of them all.
 */
export function pairwise<T>(dimensions: readonly (readonly T[])[]): T[][] {
  const n = dimensions.length;
  const key = (i: number, a: number, j: number, b: number) => `${i}:${a}:${j}:${b}`;
  const uncovered = new Set<string>();
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (let a = 0; a < (dimensions[i] as readonly T[]).length; a++)
        for (let b = 0; b < (dimensions[j] as readonly T[]).length; b++) uncovered.add(key(i, a, j, b));
  const rows: number[][] = [];
  while (uncovered.size > 0) {
    const [first] = uncovered;
    const [i, a, j, b] = (first as string).split(':').map(Number) as [number, number, number, number];
    const row: number[] = new Array<number>(n).fill(-1);
    row[i] = a;
    row[j] = b;
    for (let k = 0; k < n; k++) {
      if (row[k] !== -1) continue;
      // the value that covers the most pairs not yet covered with the values chosen so far
      let best = 0;
      let bestGain = -1;
      (dimensions[k] as readonly T[]).forEach((_, v) => {
        let gain = 0;
        row.forEach((chosen, d) => {
          if (chosen === -1 || d === k) return;
          if (uncovered.has(d < k ? key(d, chosen, k, v) : key(k, v, d, chosen))) gain += 1;
        });
        if (gain > bestGain) [best, bestGain] = [v, gain];
      });
      row[k] = best;
    }
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) uncovered.delete(key(p, row[p] as number, q, row[q] as number));
    rows.push(row);
  }
  return rows.map((row) => row.map((v, d) => (dimensions[d] as readonly T[])[v] as T));
}
