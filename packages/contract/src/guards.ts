/**
 * Zod-free checks of the two responses the web app reads before anything else has
 * loaded (the session at start, the home page's figures). zod costs about 90 KB gzip
 * in the browser, so the first page load must not pull it in; these guards accept
 * exactly what `sessionSchema` and `statsSchema` accept (see guards.test.ts).
 */
import type { Session, SessionUser } from './auth.js';
import type { Stats } from './teachers.js';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function isSessionUser(value: unknown): value is SessionUser {
  return (
    isRecord(value) && typeof value.id === 'string' && typeof value.name === 'string' && typeof value.email === 'string'
  );
}

/** better-auth's get-session answer: `null` when signed out, `{ user, session }` when signed in. */
export function isSession(value: unknown): value is Session {
  return value === null || (isRecord(value) && isSessionUser(value.user));
}

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

export function isStats(value: unknown): value is Stats {
  return (
    isRecord(value) && isInt(value.teachers) && isInt(value.reviews) && isInt(value.languages) && isInt(value.lessonsDone)
  );
}
