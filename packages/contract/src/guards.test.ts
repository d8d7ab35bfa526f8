import { describe, expect, it } from 'vitest';
import { sessionSchema } from './auth.js';
import { isSession, isStats } from './guards.js';
import { statsSchema } from './teachers.js';

const sessions: unknown[] = [
  null,
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com' }, session: { id: 's1' } },
  { user: { id: 'u1', name: '', email: 'ann@example.com', emailVerified: false } },
  { user: { id: 1, name: 'Ann', email: 'ann@example.com' } },
  { user: { id: 'u1', email: 'ann@example.com' } },
  { user: null },
  {},
  [],
  'signed-in',
  undefined,
];

const stats: unknown[] = [
  { teachers: 30, reviews: 60, languages: 8, lessonsDone: 33000 },
  { teachers: 0, reviews: 0, languages: 0, lessonsDone: 0, extra: true },
  { teachers: 1.5, reviews: 0, languages: 0, lessonsDone: 0 },
  { teachers: '30', reviews: 60, languages: 8, lessonsDone: 33000 },
  { teachers: 30, reviews: 60, languages: 8 },
  null,
  [],
];

describe('zod-free guards agree with the schemas', () => {
  it.each(sessions.map((value) => [JSON.stringify(value), value]))('session %s', (_label, value) => {
    expect(isSession(value)).toBe(sessionSchema.safeParse(value).success);
  });

  it.each(stats.map((value) => [JSON.stringify(value), value]))('stats %s', (_label, value) => {
    expect(isStats(value)).toBe(statsSchema.safeParse(value).success);
  });
});
