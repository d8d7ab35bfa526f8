import type { Sort } from '@learnlingo/contract';
import type { CursorPosition } from './cursor.js';

/**
 * The catalogue's orders, one entry each: a new order is a new entry here (and, when it
 * reads a new column, that column in teacher / teacher_language / teacher_search and its
 * indexes). The list and search statements, the cursor and the cache key are all built
 * from this table. Every order ends with the teacher id in the same direction, so it is
 * stable and a keyset cursor (value, id) names one position.
 */
export interface SortOrder {
  /**
   * The order column, spelt the same in `teacher`, `teacher_language` and `teacher_search`;
   * `score` is the search's relevance (computed, search only).
   */
  column: 'rating' | 'price_per_hour' | 'lessons_done' | 'score';
  direction: 'asc' | 'desc';
  /** the SQL type the cursor's value travels as */
  cursorType: 'float8' | 'int8';
  /**
   * The cursor value before the first row: every row comes after it (above any value of
   * an int4 column for int8; -Infinity / +Infinity for float8).
   */
  start: number;
  /**
   * The indexes a page without a search is read from, in this order: without a language,
   * and with one (checked by EXPLAIN in list-plan.test.ts). null: a search-only order.
   */
  indexes: { teacher: string; teacherLanguage: string } | null;
}

export const SORT_ORDERS: Readonly<Record<Sort, SortOrder>> = {
  rating: {
    column: 'rating',
    direction: 'desc',
    cursorType: 'float8',
    start: Number.POSITIVE_INFINITY,
    indexes: { teacher: 'teacher_list_order_idx', teacherLanguage: 'teacher_language_list_idx' },
  },
  'price-asc': {
    column: 'price_per_hour',
    direction: 'asc',
    cursorType: 'float8',
    start: Number.NEGATIVE_INFINITY,
    indexes: { teacher: 'teacher_price_order_idx', teacherLanguage: 'teacher_language_price_idx' },
  },
  // the same indexes as price-asc, read backwards
  'price-desc': {
    column: 'price_per_hour',
    direction: 'desc',
    cursorType: 'float8',
    start: Number.POSITIVE_INFINITY,
    indexes: { teacher: 'teacher_price_order_idx', teacherLanguage: 'teacher_language_price_idx' },
  },
  lessons: {
    column: 'lessons_done',
    direction: 'desc',
    cursorType: 'int8',
    start: 2 ** 31,
    indexes: { teacher: 'teacher_lessons_order_idx', teacherLanguage: 'teacher_language_lessons_idx' },
  },
  relevance: {
    column: 'score',
    direction: 'desc',
    cursorType: 'float8',
    start: Number.POSITIVE_INFINITY,
    indexes: null,
  },
};

/** `<` for a descending order, `>` for an ascending one: "comes after" in keyset terms. */
export const afterOperator = (order: SortOrder) => (order.direction === 'desc' ? '<' : '>');

/** The smallest float8 above x (x finite). */
function nextUp(x: number): number {
  if (x === 0) return Number.MIN_VALUE;
  const value = new Float64Array([x]);
  const bits = new BigInt64Array(value.buffer);
  bits[0] = (bits[0] as bigint) + (x > 0 ? 1n : -1n);
  return value[0] as number;
}

/**
 * Where a first page starts: before every row of the order, or in a price order at the
 * filter's bound on that price — (min, '') ascending, (the float8 just above max, '')
 * descending: the same rows (ids are never empty), but the keyset condition is where the
 * index scan starts, and from the order's start it read past every teacher outside the
 * range first (price-desc with an upper bound: ~470 against ~45 µs of PostgreSQL per page on
 * 100,000 teachers, docs/benchmarks.md).
 */
export function startPosition(order: SortOrder, filters: { min: number; max: number }): CursorPosition {
  if (order.column === 'price_per_hour') {
    if (order.direction === 'asc' && filters.min > order.start) return { value: filters.min, id: '' };
    if (order.direction === 'desc' && filters.max < order.start) return { value: nextUp(filters.max), id: '' };
  }
  return { value: order.start, id: '' };
}
