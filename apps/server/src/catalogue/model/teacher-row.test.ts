import { teacherSchema } from '@learnlingo/contract';
import { getTableColumns } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { teacher } from '../../db/schema.js';
import { comparableTeacher, TEACHER_API_FIELDS, TEACHER_COLUMN_FIELDS, toTeacher } from './teacher-row.js';
import { generateTeacher } from '../profiles/generator.js';

describe('the one teacher field list', () => {
  it("pairs every teacherSchema field but reviews with the teacher column of that name, in the contract's order", () => {
    expect(TEACHER_API_FIELDS).toEqual(Object.keys(teacherSchema.shape));
    expect(TEACHER_COLUMN_FIELDS.map((f) => f.field)).toEqual(TEACHER_API_FIELDS.filter((f) => f !== 'reviews'));
    const columns = getTableColumns(teacher);
    for (const { field, key, column } of TEACHER_COLUMN_FIELDS) {
      expect(column.name).toBe(field);
      expect(columns[key as keyof typeof columns]).toBe(column);
    }
  });

  it('compares every field: a change to any one of them is a change', () => {
    const base = { ...generateTeacher(1), reviews: generateTeacher(1).reviews };
    const same = comparableTeacher(toTeacher({ ...base, reviews: JSON.stringify(base.reviews) }));
    expect(same).toBe(comparableTeacher(base));
    const changes: Record<string, unknown> = {
      id: 'other',
      name: 'X',
      surname: 'Y',
      languages: ['Klingon'],
      levels: ['C2 Proficient'],
      rating: 1,
      price_per_hour: 1,
      lessons_done: 1,
      avatar_url: 'https://example.com/a.png',
      lesson_info: 'x',
      conditions: ['x'],
      experience: 'x',
      country: 'Atlantis',
      reviews: [{ reviewer_name: 'Z', reviewer_rating: 1, comment: 'z' }],
    };
    expect(Object.keys(changes).sort()).toEqual([...TEACHER_API_FIELDS].sort());
    for (const [field, value] of Object.entries(changes)) {
      expect(comparableTeacher({ ...base, [field]: value }), field).not.toBe(same);
    }
  });
});
