import { describe, expect, it } from 'vitest';
import {
  LEVELS as CONTRACT_LEVELS,
  facetsSchema,
  favoriteStateSchema,
  filtersToSearch,
  parseFilters,
  teacherSchema,
  teachersPageSchema,
} from '@learnlingo/contract';
import { loadTeachers } from '../testing/teachers-fixture';
import {
  LEVELS,
  filtersToUrlSearch,
  guardSchema,
  isFacets,
  isFavoriteState,
  isTeacher,
  isTeachersPage,
  parseUrlFilters,
} from './guards';

const teachers = loadTeachers();
const [teacher] = teachers;

describe('zod-free guards agree with the contract', () => {
  it('has the same levels', () => {
    expect(LEVELS).toEqual(CONTRACT_LEVELS);
  });

  it('accepts every real teacher, as the schema does', () => {
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
    ['not an object', 'teacher'],
    ['null', null],
  ];
  it.each(badTeachers)('rejects a teacher with %s, as the schema does', (_name, value) => {
    expect(teacherSchema.safeParse(value).success).toBe(false);
    expect(isTeacher(value)).toBe(false);
  });

  it('checks pages, facets and favourite states like the schemas', () => {
    const cases: unknown[] = [
      { items: teachers.slice(0, 4), nextCursor: 'abc' },
      { items: [], nextCursor: null },
      { items: [{}], nextCursor: null },
      { items: [], nextCursor: 3 },
      { items: [] },
    ];
    for (const value of cases) expect(isTeachersPage(value)).toBe(teachersPageSchema.safeParse(value).success);
    const facets: unknown[] = [
      { languages: ['French'], levels: ['A1 Beginner'], prices: [25, 30] },
      { languages: ['French'], levels: ['Z1'], prices: [] },
      { languages: [], levels: [], prices: ['30'] },
    ];
    for (const value of facets) expect(isFacets(value)).toBe(facetsSchema.safeParse(value).success);
    const states: unknown[] = [{ teacherId: 'a1', favorite: true }, { teacherId: '', favorite: true }, { teacherId: 'a1' }];
    for (const value of states) expect(isFavoriteState(value)).toBe(favoriteStateSchema.safeParse(value).success);
  });

  it('reads URL filters exactly as parseFilters does', () => {
    const queries = [
      '',
      'language=French',
      'language=%20French%20',
      'language=French1',
      'language=' + 'a'.repeat(41),
      "language=Haitian%20Creole&level=B1%20Intermediate&price=30",
      'level=B1',
      'level=c1%20advanced',
      'price=0',
      'price=-5',
      'price=10001',
      'price=abc',
      'price=27.5',
      'price=',
      'price=Infinity',
      'price=1e2',
      'language=&level=&price=',
    ];
    for (const query of queries) {
      const search = new URLSearchParams(query);
      expect(parseUrlFilters(search), query).toEqual(parseFilters(search));
      expect(filtersToUrlSearch(parseUrlFilters(search)).toString(), query).toBe(
        filtersToSearch(parseFilters(search)).toString(),
      );
    }
  });

  it('makes a Standard Schema for RTK Query from a guard', () => {
    const schema = guardSchema(isFavoriteState, 'favorite state');
    expect(schema['~standard'].validate({ teacherId: 'x', favorite: false })).toEqual({
      value: { teacherId: 'x', favorite: false },
    });
    expect(schema['~standard'].validate({})).toEqual({
      issues: [{ message: 'The server sent an unexpected favorite state' }],
    });
  });
});
