/**
 * Every account's one role (issue 24, decision 109): `learner` unless an admin (or
 * `npm run admin`) says otherwise. Zod-free: the session guard in the first page load checks it.
 */
export const ROLES = ['learner', 'teacher', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'learner';

export const isRole = (value: unknown): value is Role => value === 'learner' || value === 'teacher' || value === 'admin';
