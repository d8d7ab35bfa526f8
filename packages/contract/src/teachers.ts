import { z } from 'zod';
import {
  DECIMAL_MAX,
  DECIMAL_PATTERN,
  LANGUAGE_MAX,
  LANGUAGE_PATTERN,
  LEVELS,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PRICE_MAX,
  TEACHER_ID_MAX,
  TEACHER_ID_PATTERN,
  type TeacherFilters,
} from './rules.js';

export const levelSchema = z.enum(LEVELS);

export const teacherIdSchema = z
  .string()
  .min(1)
  .max(TEACHER_ID_MAX)
  .regex(TEACHER_ID_PATTERN, 'Invalid teacher id');

export const languageSchema = z
  .string()
  .trim()
  .min(1)
  .max(LANGUAGE_MAX)
  .regex(LANGUAGE_PATTERN, 'Invalid language');

export const reviewSchema = z.object({
  reviewer_name: z.string().min(1).max(100),
  reviewer_rating: z.number().min(0).max(5),
  comment: z.string().max(2000),
});
export type Review = z.infer<typeof reviewSchema>;

/** One teacher as the API returns it, in the original's field names. */
export const teacherSchema = z.object({
  id: teacherIdSchema,
  name: z.string(),
  surname: z.string(),
  languages: z.array(z.string()),
  levels: z.array(levelSchema),
  rating: z.number(),
  reviews: z.array(reviewSchema),
  price_per_hour: z.number(),
  lessons_done: z.number().int(),
  avatar_url: z.string().nullable(),
  lesson_info: z.string(),
  conditions: z.array(z.string()),
  experience: z.string(),
});
export type Teacher = z.infer<typeof teacherSchema>;

/**
 * A teacher record as the original's realtime-database export holds it (import input).
 * `id` is optional: the export's key is used when the record has none.
 */
export const teacherRecordSchema = z.object({
  id: teacherIdSchema.optional(),
  name: z.string().trim().min(1).max(100),
  surname: z.string().trim().min(1).max(100),
  languages: z.array(languageSchema).min(1).max(20),
  levels: z.array(levelSchema).min(1).max(6),
  rating: z.number().min(0).max(5),
  reviews: z.array(reviewSchema).max(500).default([]),
  price_per_hour: z.number().positive().max(PRICE_MAX),
  lessons_done: z.number().int().min(0),
  avatar_url: z.string().max(2000).nullable().default(null),
  lesson_info: z.string().max(5000).default(''),
  conditions: z.array(z.string().max(1000)).max(50).default([]),
  experience: z.string().max(10000).default(''),
});
export type TeacherRecord = z.infer<typeof teacherRecordSchema>;

/** A number from a URL: decimal digits only (no `0x10`, `1e2`, blanks), capped before the pattern. */
const decimal = z.preprocess(
  (value) => (typeof value === 'number' ? String(value) : value),
  z
    .string({ error: 'Expected a decimal number' })
    .max(DECIMAL_MAX, { error: 'Expected a decimal number', abort: true })
    .regex(DECIMAL_PATTERN, 'Expected a decimal number')
    .transform(Number),
);

/** Catalogue filters, as they appear in the page URL and the API query. */
export const teacherFiltersSchema = z.object({
  language: languageSchema.optional(),
  level: levelSchema.optional(),
  /** at most this hourly price */
  price: decimal.pipe(z.number().positive().max(PRICE_MAX)).optional(),
});

// Compile-time check: the schema's output is exactly the plain TeacherFilters of rules.ts.
type FiltersOutput = z.infer<typeof teacherFiltersSchema>;
const filtersAgree: [FiltersOutput] extends [TeacherFilters]
  ? [TeacherFilters] extends [FiltersOutput]
    ? true
    : never
  : never = true;
void filtersAgree;

export const teachersQuerySchema = teacherFiltersSchema
  .extend({
    cursor: z.string().min(1).max(200).optional(),
    limit: decimal.pipe(z.number().int().min(1).max(PAGE_SIZE_MAX)).default(PAGE_SIZE_DEFAULT),
  })
  .strict();
export type TeachersQuery = z.input<typeof teachersQuerySchema>;

export const teachersPageSchema = z.object({
  items: z.array(teacherSchema),
  nextCursor: z.string().nullable(),
});
export type TeachersPage = z.infer<typeof teachersPageSchema>;

export const teacherParamsSchema = z.object({ id: teacherIdSchema });

export const facetsSchema = z.object({
  languages: z.array(z.string()),
  levels: z.array(levelSchema),
  /** hourly price steps present in the data, ascending */
  prices: z.array(z.number()),
});
export type Facets = z.infer<typeof facetsSchema>;

export const statsSchema = z.object({
  teachers: z.number().int(),
  reviews: z.number().int(),
  languages: z.number().int(),
  lessonsDone: z.number().int(),
});
export type Stats = z.infer<typeof statsSchema>;
