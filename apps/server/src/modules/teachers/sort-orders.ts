import type { Sort } from '@learnlingo/contract';

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
