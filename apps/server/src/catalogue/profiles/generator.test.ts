import { LEVELS, teacherRecordSchema } from '@learnlingo/contract';
import { describe, expect, it } from 'vitest';
import { generateTeacher, generateTeachers, GENERATED_COUNTRIES, GENERATED_LANGUAGES, GENERATED_PRICES } from './generator.js';

describe('catalogue generator', () => {
  const sample = [...generateTeachers(1, 2000)];

  it('is deterministic: teacher n is the same whatever the count', () => {
    expect(generateTeacher(17)).toEqual(sample[16]);
    expect([...generateTeachers(1, 5)]).toEqual(sample.slice(0, 5));
  });

  it('makes valid, realistic records', () => {
    for (const t of sample) {
      expect(teacherRecordSchema.parse(t)).toEqual(t);
      expect(t.rating).toBeGreaterThanOrEqual(3.5);
      expect(t.rating).toBeLessThanOrEqual(5);
      expect(Math.round(t.rating * 10) / 10).toBe(t.rating);
      expect(GENERATED_PRICES).toContain(t.price_per_hour);
      expect(t.reviews.length).toBeLessThanOrEqual(8);
      expect(t.avatar_url).toBeNull();
      // levels are a contiguous run of LEVELS
      const start = LEVELS.indexOf(t.levels[0] as (typeof LEVELS)[number]);
      expect(t.levels).toEqual(LEVELS.slice(start, start + t.levels.length));
    }
  });

  it('covers 10+ languages, every level, 0..8 reviews and unique ids', () => {
    expect(GENERATED_LANGUAGES.length).toBeGreaterThanOrEqual(10);
    expect(new Set(sample.flatMap((t) => t.languages)).size).toBe(GENERATED_LANGUAGES.length);
    expect(new Set(sample.flatMap((t) => t.levels)).size).toBe(LEVELS.length);
    expect(new Set(sample.map((t) => t.reviews.length))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8]));
    expect(new Set(sample.map((t) => t.id)).size).toBe(sample.length);
  });
});

describe('generated countries', () => {
  const sample = [...generateTeachers(1, 2000)];

  it('a country where the first language is spoken, and a few teachers without one', () => {
    for (const t of sample) {
      if (t.country === null) continue;
      expect(GENERATED_COUNTRIES[t.languages[0] as (typeof GENERATED_LANGUAGES)[number]], t.id).toContain(t.country);
    }
    const without = sample.filter((t) => t.country === null).length;
    expect(without).toBeGreaterThan(0);
    expect(without).toBeLessThan(sample.length / 10);
    expect(new Set(sample.map((t) => t.country)).size).toBeGreaterThan(20);
  });
});
