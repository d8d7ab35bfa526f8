import { teacherSchema, teachersPageSchema, type Sort, type Teacher } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { generateTeachers } from '../catalogue/index.js';
import { LIST_STATEMENTS } from '../catalogue/index.js';

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
