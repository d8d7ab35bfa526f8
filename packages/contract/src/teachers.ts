import { z } from 'zod';
import { AVATAR_URL_MAX } from './avatars.js';
import {
  CONTROL_CHARACTER_MESSAGE,
  CURSOR_MAX,
  hasControlCharacter,
  DECIMAL_MAX,
  DECIMAL_PATTERN,
  LANGUAGE_MAX,
  LANGUAGE_PATTERN,
  LEVELS,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PRICE_MAX,
  PRICE_PATTERN,
  SEARCH_MAX,
  SORTS,
  TEACHER_ID_MAX,
  TEACHER_ID_PATTERN,
} from './rules.js';
import { CATALOGUE_FILTERS, COUNTRY_MAX, TAG_FILTERS, tagFrom, type TagFacet, type TagFilter, type TagValue, type TagValues } from './catalogue-filters.js';

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

/** A country's name, as a filter takes it (like a language: letters, spaces, `-`, `'`, `(`, `)`). */
export const countrySchema = z
  .string()
  .trim()
  .min(1)
  .max(COUNTRY_MAX)
  .regex(LANGUAGE_PATTERN, 'Invalid country');

export const reviewSchema = z.object({
  reviewer_name: z.string().min(1).max(100),
  reviewer_rating: z.number().min(0).max(5),
  comment: z.string().max(2000),
  /** a review of a lesson taken here (decision 112): absent on imported reviews */
  lesson: z.literal(true).optional(),
  /** the lesson's start (UTC ISO) and language, and the teacher's answer: lesson reviews only */
  date: z.string().optional(),
  language: z.string().nullable().optional(),
  reply: z.string().nullable().optional(),
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
  /** where the teacher lives, a country's name in English; null when not known */
  country: z.string().nullable(),
});
export type Teacher = z.infer<typeof teacherSchema>;

/** An imported one-line text: capped first, no control characters. */
const importLine = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTER_MESSAGE, abort: true });
/** An imported paragraph: capped first; tabs and line breaks allowed, no other control character. */
const importText = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .refine((v) => !hasControlCharacter(v.replace(/[\t\n\r]/g, ' ')), { error: CONTROL_CHARACTER_MESSAGE, abort: true });

const reviewRecordSchema = z.object({
  reviewer_name: importLine(100).min(1),
  reviewer_rating: z.number().min(0).max(5),
  comment: importText(2000),
});

/**
 * A teacher record as the original's realtime-database export holds it (import input).
 * `id` is optional: the export's key is used when the record has none.
 */
export const teacherRecordSchema = z.object({
  id: teacherIdSchema.optional(),
  name: importLine(400).trim().min(1).max(100),
  surname: importLine(400).trim().min(1).max(100),
  languages: z.array(languageSchema).min(1).max(20),
  levels: z.array(levelSchema).min(1).max(6),
  rating: z.number().min(0).max(5),
  reviews: z.array(reviewRecordSchema).max(500).default([]),
  price_per_hour: z.number().positive().max(PRICE_MAX),
  lessons_done: z.number().int().min(0),
  avatar_url: importLine(AVATAR_URL_MAX).nullable().default(null),
  lesson_info: importText(5000).default(''),
  conditions: z.array(importText(1000)).max(50).default([]),
  experience: importText(10000).default(''),
  /** not in the original's export: taken when present, else none */
  country: importLine(400).trim().pipe(countrySchema).nullable().default(null),
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
/** the same, for other queries' numbers (a page's limit) */
export const decimalQuerySchema = decimal;

/**
 * A tag filter in a query (CATALOGUE_FILTERS): a fixed list's value in any case, answered
 * in the list's spelling (capped first); a name trimmed, capped, then matched.
 */
function tagQuerySchema<K extends TagFilter>(filter: K): z.ZodType<TagValue<K>, string> {
  const values: TagValues = CATALOGUE_FILTERS[filter].values;
  if (values.kind === 'fixed') {
    return z
      .string()
      .max(values.max, { abort: true })
      .transform((value, ctx) => {
        const found = tagFrom(filter, value);
        if (found !== undefined) return found as TagValue<K>;
        ctx.addIssue({ code: 'custom', message: `Must be one of: ${values.values.join(', ')}` });
        return z.NEVER;
      });
  }
  return z
    .string()
    .trim()
    .min(1)
    .max(values.max)
    .regex(values.pattern, `Invalid ${filter}`) as unknown as z.ZodType<TagValue<K>, string>;
}

/** Each tag filter's query schema, from the registry. */
const tagQuerySchemas = Object.fromEntries(TAG_FILTERS.map((filter) => [filter, tagQuerySchema(filter).optional()])) as {
  [K in TagFilter]: z.ZodOptional<z.ZodType<TagValue<K>, string>>;
};

/** A level in a query: LEVELS' names, any case; answered in LEVELS' spelling. */
export const levelQuerySchema = tagQuerySchema('level');

/** A price in a query: whole dollars, 0…PRICE_MAX. */
const priceQuerySchema = z
  .string()
  .max(5, { error: 'Must be a whole number of dollars', abort: true })
  .regex(PRICE_PATTERN, 'Must be a whole number of dollars, 0 or more')
  .transform(Number)
  .pipe(z.number().int().min(0).max(PRICE_MAX));

/**
 * Catalogue filters, as they appear in the page URL and the API query (rules.ts reads the
 * same URL without zod; rules.test.ts checks they agree). A language matches whatever its
 * case (the server answers in the catalogue's spelling); `price` is the original's "at
 * most" and means `price_max`.
 */
export const teacherFiltersSchema = z.object({
  /** free text over names, languages, lesson info, conditions and experience */
  q: z
    .string()
    .max(SEARCH_MAX, { abort: true })
    .refine((value) => !hasControlCharacter(value), CONTROL_CHARACTER_MESSAGE)
    .transform((value) => value.trim())
    .optional(),
  /** language, level, country: CATALOGUE_FILTERS' tags */
  ...tagQuerySchemas,
  /** at most this hourly price (the original's name for price_max) */
  price: priceQuerySchema.optional(),
  /** at least this hourly price, inclusive */
  price_min: priceQuerySchema.optional(),
  /** at most this hourly price, inclusive */
  price_max: priceQuerySchema.optional(),
});
type FiltersInput = z.output<typeof teacherFiltersSchema>;

/** The refinements every catalogue query shares: the price range and the search-only sort. */
function checkQuery(query: FiltersInput & { sort?: (typeof SORTS)[number] }, ctx: z.RefinementCtx): void {
  const max = Math.min(query.price ?? Infinity, query.price_max ?? Infinity);
  if (query.price_min !== undefined && query.price_min > max) {
    ctx.addIssue({ code: 'custom', path: ['price_min'], message: 'Must not be above the maximum price' });
  }
  if (query.sort === 'relevance' && !query.q) {
    ctx.addIssue({ code: 'custom', path: ['sort'], message: 'relevance needs a search (q)' });
  }
}

export const teachersQuerySchema = teacherFiltersSchema
  .extend({
    /** default: relevance with q, rating without */
    sort: z.enum(SORTS).optional(),
    cursor: z.string().min(1).max(CURSOR_MAX).optional(),
    limit: decimal.pipe(z.number().int().min(1).max(PAGE_SIZE_MAX)).default(PAGE_SIZE_DEFAULT),
  })
  .strict()
  .superRefine(checkQuery);
export type TeachersQuery = z.input<typeof teachersQuerySchema>;

export const facetsQuerySchema = teacherFiltersSchema.strict().superRefine(checkQuery);

export const teachersPageSchema = z.object({
  items: z.array(teacherSchema),
  nextCursor: z.string().nullable(),
  /** how many teachers match the whole query (every page) */
  total: z.number().int().min(0),
});
export type TeachersPage = z.infer<typeof teachersPageSchema>;

export const teacherParamsSchema = z.object({ id: teacherIdSchema });

export const facetsSchema = z.object({
  languages: z.array(z.string()),
  levels: z.array(levelSchema),
  /** the countries teachers live in, sorted */
  countries: z.array(z.string()),
  /** hourly price steps present in the data, ascending */
  prices: z.array(z.number()),
  /**
   * For each language, level and country, how many teachers match it together with the query's
   * other filters (a language's count ignores the query's language, a level's its level, a country's its country).
   */
  counts: z.object(
    Object.fromEntries(
      TAG_FILTERS.map((filter) => [CATALOGUE_FILTERS[filter].facet, z.record(z.string(), z.number().int().min(0))]),
    ) as Record<TagFacet, z.ZodRecord<z.ZodString, z.ZodNumber>>,
  ),
  /** how many teachers match the whole query */
  total: z.number().int().min(0),
});
export type Facets = z.infer<typeof facetsSchema>;

export const statsSchema = z.object({
  teachers: z.number().int(),
  reviews: z.number().int(),
  languages: z.number().int(),
  lessonsDone: z.number().int(),
});
export type Stats = z.infer<typeof statsSchema>;
