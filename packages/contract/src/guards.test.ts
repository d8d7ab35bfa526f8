import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionSchema } from './auth.js';
import { favoritesSchema, favoriteStateSchema } from './favorites.js';
import { guardSchema, isFacets, isFavorites, isFavoriteState, isStats, isTeachersPage } from './api-guards.js';
import { isSession, isTeacher } from './guards.js';
import { facetsSchema, statsSchema, teacherSchema, teachersPageSchema } from './teachers.js';

const sessions: unknown[] = [
  null,
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com' }, session: { id: 's1' } },
  { user: { id: 'u1', name: '', email: 'ann@example.com', emailVerified: false } },
  { user: { id: 1, name: 'Ann', email: 'ann@example.com' } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', emailVerified: 'yes' } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', emailVerified: true } },
  // the role (decision 109): one of three, or absent
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', role: 'admin' } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', role: 'teacher' } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', role: 'learner' } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', role: 'owner' } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', role: null } },
  { user: { id: 'u1', name: 'Ann', email: 'ann@example.com', role: ['admin'] } },
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

// ---------------------------------------------------------------- catalogue guards

/** The real catalogue (../shared/data/teachers.json beside the repository), read, never copied. */
function loadRealTeachers(): unknown[] {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'data', 'teachers.json');
    if (existsSync(candidate)) {
      const data = JSON.parse(readFileSync(candidate, 'utf8')) as { teachers: Record<string, unknown>[] };
      // as the API returns them: the original has no country, the importer gives none
      return data.teachers.map((t, i) => ({ id: String(i), ...t, country: null }));
    }
    if (dirname(dir) === dir) throw new Error('shared/data/teachers.json not found beside the repository');
  }
}

describe('catalogue guards agree with the schemas', () => {
  const teachers = loadRealTeachers();
  const teacher = teachers[0] as Record<string, unknown>;

  it('accepts every real teacher, as the schema does', () => {
    expect(teachers).toHaveLength(30);
    for (const t of teachers) {
      expect(teacherSchema.safeParse(t).success).toBe(true);
      expect(isTeacher(t)).toBe(true);
    }
  });

  const badTeachers: [string, unknown][] = [
    ['no id', { ...teacher, id: undefined }],
    ['bad id', { ...teacher, id: 'a b' }],
    ['unknown level', { ...teacher, levels: ['Z9 Guru'] }],
    ['string rating', { ...teacher, rating: '4.8' }],
    ['fractional lessons', { ...teacher, lessons_done: 1.5 }],
    ['review rating above 5', { ...teacher, reviews: [{ reviewer_name: 'A', reviewer_rating: 6, comment: '' }] }],
    ['empty reviewer name', { ...teacher, reviews: [{ reviewer_name: '', reviewer_rating: 4, comment: '' }] }],
    ['numeric avatar', { ...teacher, avatar_url: 1 }],
    ['no country field', { ...teacher, country: undefined }],
    ['numeric country', { ...teacher, country: 33 }],
    ['not an object', 'teacher'],
    ['null', null],
  ];
  it.each(badTeachers)('rejects a teacher with %s, as the schema does', (_name, value) => {
    expect(teacherSchema.safeParse(value).success).toBe(false);
    expect(isTeacher(value)).toBe(false);
  });

  it('checks pages, facets, favourites and favourite states like the schemas', () => {
    const pages: unknown[] = [
      { items: teachers.slice(0, 4), nextCursor: 'abc', total: 12 },
      { items: [], nextCursor: null, total: 0 },
      { items: [], nextCursor: null },
      { items: [], nextCursor: null, total: -1 },
      { items: [], nextCursor: null, total: 1.5 },
      { items: [{}], nextCursor: null, total: 1 },
      { items: [], nextCursor: 3, total: 0 },
      { items: [] },
    ];
    for (const value of pages) expect(isTeachersPage(value)).toBe(teachersPageSchema.safeParse(value).success);
    const facets: unknown[] = [
      { languages: ['French'], levels: ['A1 Beginner'], countries: ['France'], prices: [25, 30], counts: { languages: { French: 2 }, levels: { 'A1 Beginner': 0 }, countries: { France: 2 } }, total: 2 },
      { languages: ['French'], levels: ['A1 Beginner'], prices: [25, 30], counts: { languages: { French: 2 }, levels: { 'A1 Beginner': 0 }, countries: {} }, total: 2 },
      { languages: ['French'], levels: [], countries: [], prices: [], counts: { languages: {}, levels: {} }, total: 0 },
      { languages: [], levels: [], countries: [], prices: [], counts: { languages: {}, levels: {}, countries: { France: -1 } }, total: 0 },
      { languages: ['French'], levels: ['A1 Beginner'], prices: [25, 30] },
      { languages: ['French'], levels: [], prices: [], counts: { languages: { French: -2 }, levels: {} }, total: 0 },
      { languages: ['French'], levels: [], prices: [], counts: { languages: { French: '2' }, levels: {} }, total: 0 },
      { languages: ['French'], levels: [], prices: [], counts: { languages: {}, levels: [] }, total: 0 },
      { languages: ['French'], levels: [], prices: [], counts: { languages: {}, levels: {} } },
      { languages: ['French'], levels: ['Z1'], prices: [], counts: { languages: {}, levels: {} }, total: 0 },
      { languages: [], levels: [], prices: ['30'], counts: { languages: {}, levels: {} }, total: 0 },
    ];
    for (const value of facets) expect(isFacets(value)).toBe(facetsSchema.safeParse(value).success);
    const favorites: unknown[] = [{ items: teachers.slice(0, 2) }, { items: [{}] }, {}];
    for (const value of favorites) expect(isFavorites(value)).toBe(favoritesSchema.safeParse(value).success);
    const states: unknown[] = [{ teacherId: 'a1', favorite: true }, { teacherId: '', favorite: true }, { teacherId: 'a1' }];
    for (const value of states) expect(isFavoriteState(value)).toBe(favoriteStateSchema.safeParse(value).success);
  });

  it('makes a Standard Schema from a guard', () => {
    const schema = guardSchema(isFavoriteState, 'favorite state');
    expect(schema['~standard'].validate({ teacherId: 'x', favorite: false })).toEqual({
      value: { teacherId: 'x', favorite: false },
    });
    expect(schema['~standard'].validate({})).toEqual({
      issues: [{ message: 'The server sent an unexpected favorite state' }],
    });
  });
});
