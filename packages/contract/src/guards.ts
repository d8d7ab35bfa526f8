/**
 * Zod-free checks of the API's responses, for the browser: zod would otherwise come
 * with the first page load. Each guard accepts exactly what the matching schema
 * accepts (guards.test.ts checks them against the schemas, on the real catalogue and
 * on bad input).
 */
import type { Session, SessionUser } from './auth.js';
import { isRole } from './roles.js';
import { isLevel, TEACHER_ID_MAX, TEACHER_ID_PATTERN } from './rules.js';
import type { Review, Teacher } from './teachers.js';

export type Guard<T> = (value: unknown) => value is T;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isSessionUser(value: unknown): value is SessionUser {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.name === 'string' &&
    typeof value.email === 'string' &&
    (value.emailVerified === undefined || typeof value.emailVerified === 'boolean') &&
    (value.role === undefined || isRole(value.role))
  );
}

/** better-auth's get-session answer: `null` when signed out, `{ user, session }` when signed in. */
export function isSession(value: unknown): value is Session {
  return value === null || (isRecord(value) && isSessionUser(value.user));
}

export const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
export const isString = (value: unknown): value is string => typeof value === 'string';
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const arrayOf =
  <T>(guard: Guard<T>): Guard<T[]> =>
  (value): value is T[] =>
    Array.isArray(value) && value.every(guard);

export const isTeacherId = (value: unknown): value is string =>
  isString(value) && value.length >= 1 && value.length <= TEACHER_ID_MAX && TEACHER_ID_PATTERN.test(value);

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
    isInt(value.lessons_done) &&
    (value.avatar_url === null || isString(value.avatar_url)) &&
    isString(value.lesson_info) &&
    arrayOf(isString)(value.conditions) &&
    isString(value.experience) &&
    (value.country === null || isString(value.country))
  );
}

export const isTeacherList = arrayOf(isTeacher);
