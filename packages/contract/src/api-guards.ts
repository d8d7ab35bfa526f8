/**
 * The guards of the API's answers that only lazily loaded code reads (the catalogue's pages,
 * facets, stats, favourites): apart from guards.ts, whose session and teacher-list guards are
 * in the first page load, so that these are not (decision 109's budget note). Same rule:
 * each accepts exactly what its schema accepts (guards.test.ts).
 */
import type { FavoriteState, Favorites } from './favorites.js';
import { arrayOf, type Guard, isInt, isNumber, isRecord, isString, isTeacherId, isTeacherList } from './guards.js';
import { isLevel } from './rules.js';
import type { Facets, Stats, TeachersPage } from './teachers.js';

export function isStats(value: unknown): value is Stats {
  return (
    isRecord(value) && isInt(value.teachers) && isInt(value.reviews) && isInt(value.languages) && isInt(value.lessonsDone)
  );
}

const isCount = (value: unknown): value is number => isInt(value) && value >= 0;
const isCountRecord = (value: unknown): value is Record<string, number> =>
  isRecord(value) && Object.values(value).every(isCount);

export const isTeachersPage = (value: unknown): value is TeachersPage =>
  isRecord(value) &&
  isTeacherList(value.items) &&
  (value.nextCursor === null || isString(value.nextCursor)) &&
  isCount(value.total);

export const isFacets = (value: unknown): value is Facets =>
  isRecord(value) &&
  arrayOf(isString)(value.languages) &&
  arrayOf(isLevel)(value.levels) &&
  arrayOf(isString)(value.countries) &&
  arrayOf(isNumber)(value.prices) &&
  isRecord(value.counts) &&
  isCountRecord(value.counts.languages) &&
  isCountRecord(value.counts.levels) &&
  isCountRecord(value.counts.countries) &&
  isCount(value.total);

export const isFavorites = (value: unknown): value is Favorites => isRecord(value) && isTeacherList(value.items);

export const isFavoriteState = (value: unknown): value is FavoriteState =>
  isRecord(value) && isTeacherId(value.teacherId) && typeof value.favorite === 'boolean';

/**
 * A Standard Schema made of a guard (e.g. for RTK Query's `responseSchema`): a response
 * that is not what the contract says fails the request instead of reaching the UI.
 */
export function guardSchema<T>(guard: Guard<T>, name: string) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'learnlingo',
      validate: (value: unknown) =>
        guard(value) ? { value } : { issues: [{ message: `The server sent an unexpected ${name}` }] },
    },
  };
}
