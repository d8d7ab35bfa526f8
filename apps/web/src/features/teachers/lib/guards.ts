/**
 * Zod-free checks of the catalogue's responses and URL filters. zod (~90 KB gzip)
 * stays out of the catalogue's first load and comes with the booking form; these
 * accept exactly what the contract's schemas accept (guards.test.ts checks that
 * against the schemas, on the real data and on bad input).
 */
import type { Facets, FavoriteState, Favorites, Level, Review, Teacher, TeacherFilters, TeachersPage } from '@learnlingo/contract';

/** Same as the contract's LEVELS (checked in the test). */
export const LEVELS: readonly Level[] = [
  'A1 Beginner',
  'A2 Elementary',
  'B1 Intermediate',
  'B2 Upper-Intermediate',
  'C1 Advanced',
  'C2 Proficient',
];
const PRICE_MAX = 10_000;
const TEACHER_ID = /^[A-Za-z0-9_-]+$/;
const LANGUAGE = /^[\p{L}][\p{L} '()-]*$/u;

type Guard<T> = (value: unknown) => value is T;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const arrayOf =
  <T>(guard: Guard<T>): Guard<T[]> =>
  (value): value is T[] =>
    Array.isArray(value) && value.every(guard);

export const isLevel = (value: unknown): value is Level => LEVELS.includes(value as Level);
export const isTeacherId = (value: unknown): value is string =>
  isString(value) && value.length >= 1 && value.length <= 64 && TEACHER_ID.test(value);

export function isReview(value: unknown): value is Review {
  return (
    isRecord(value) &&
    isString(value.reviewer_name) &&
    value.reviewer_name.length >= 1 &&
    value.reviewer_name.length <= 100 &&
    isNumber(value.reviewer_rating) &&
    value.reviewer_rating >= 0 &&
    value.reviewer_rating <= 5 &&
    isString(value.comment) &&
    value.comment.length <= 2000
  );
}

export function isTeacher(value: unknown): value is Teacher {
  return (
    isRecord(value) &&
    isTeacherId(value.id) &&
    isString(value.name) &&
    isString(value.surname) &&
    arrayOf(isString)(value.languages) &&
    arrayOf(isLevel)(value.levels) &&
    isNumber(value.rating) &&
    arrayOf(isReview)(value.reviews) &&
    isNumber(value.price_per_hour) &&
    isNumber(value.lessons_done) &&
    Number.isInteger(value.lessons_done) &&
    (value.avatar_url === null || isString(value.avatar_url)) &&
    isString(value.lesson_info) &&
    arrayOf(isString)(value.conditions) &&
    isString(value.experience)
  );
}

export const isTeacherList = arrayOf(isTeacher);

export const isTeachersPage = (value: unknown): value is TeachersPage =>
  isRecord(value) && isTeacherList(value.items) && (value.nextCursor === null || isString(value.nextCursor));

export const isFacets = (value: unknown): value is Facets =>
  isRecord(value) && arrayOf(isString)(value.languages) && arrayOf(isLevel)(value.levels) && arrayOf(isNumber)(value.prices);

export const isFavorites = (value: unknown): value is Favorites => isRecord(value) && isTeacherList(value.items);

export const isFavoriteState = (value: unknown): value is FavoriteState =>
  isRecord(value) && isTeacherId(value.teacherId) && typeof value.favorite === 'boolean';

/**
 * A Standard Schema made of a guard, for RTK Query's `responseSchema`: a response
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

/** Filters from a URL query, as the contract's parseFilters reads them; invalid values are dropped. */
export function parseUrlFilters(search: URLSearchParams): TeacherFilters {
  const out: TeacherFilters = {};
  const language = search.get('language')?.trim();
  if (language && language.length <= 40 && LANGUAGE.test(language)) out.language = language;
  const level = search.get('level');
  if (isLevel(level)) out.level = level;
  const rawPrice = search.get('price');
  if (rawPrice !== null && rawPrice !== '') {
    const price = Number(rawPrice);
    if (Number.isFinite(price) && price > 0 && price <= PRICE_MAX) out.price = price;
  }
  return out;
}

/** The query string of some filters, in a stable order (the contract's filtersToSearch). */
export function filtersToUrlSearch(filters: TeacherFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.language) search.set('language', filters.language);
  if (filters.level) search.set('level', filters.level);
  if (filters.price !== undefined) search.set('price', String(filters.price));
  return search;
}
