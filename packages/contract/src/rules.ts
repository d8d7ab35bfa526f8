/**
 * The catalogue's rules as plain values and functions, without zod, so the browser's
 * first load can use them. The zod schemas in teachers.ts are built from the same
 * constants; rules.test.ts checks that both read a URL the same way.
 */

export const LEVELS = [
  'A1 Beginner',
  'A2 Elementary',
  'B1 Intermediate',
  'B2 Upper-Intermediate',
  'C1 Advanced',
  'C2 Proficient',
] as const;
export type Level = (typeof LEVELS)[number];

export const PAGE_SIZE_DEFAULT = 4;
export const PAGE_SIZE_MAX = 50;
export const PRICE_MAX = 10_000;
/** Longest page cursor (`cursor`) a query may carry, in characters. */
export const CURSOR_MAX = 200;

export const TEACHER_ID_MAX = 64;
/** A teacher id: the realtime-database key (letters, digits, `-`, `_`). */
export const TEACHER_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * Control characters (C0, DEL, C1): refused in every string the API takes — a NUL cannot
 * even be stored in PostgreSQL. One character class, searched once: linear time.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
export const CONTROL_CHARACTER_MESSAGE = 'Must not contain control characters';
export const hasControlCharacter = (value: string): boolean => CONTROL_CHARACTER.test(value);

/**
 * A number in a URL: decimal digits with an optional fraction — not `0x10`, `1e2`,
 * `Infinity` or blanks, which Number() would read. Length-capped before the pattern runs.
 */
export const DECIMAL_MAX = 12;
export const DECIMAL_PATTERN = /^\d+(?:\.\d+)?$/;
export const isDecimal = (raw: string): boolean => raw.length <= DECIMAL_MAX && DECIMAL_PATTERN.test(raw);

export const LANGUAGE_MAX = 40;
/** A language name as shown in the catalogue: letters, spaces, `-`, `'`, `(`, `)`. */
export const LANGUAGE_PATTERN = /^[\p{L}][\p{L} '()-]*$/u;

/** The catalogue's orders (`sort`); `relevance` needs a search and is its default. */
export const SORTS = ['rating', 'price-asc', 'price-desc', 'lessons', 'relevance'] as const;
export type Sort = (typeof SORTS)[number];

/** Longest search text (`q`), in characters. */
export const SEARCH_MAX = 100;
/** Longest level name accepted in a query (the longest level is 21 characters). */
export const LEVEL_MAX = 40;
/** A price in a query: whole dollars, digits only. */
export const PRICE_PATTERN = /^\d{1,5}$/;

/**
 * What narrows the catalogue, normalised: the original's `price` ("at most") is read as
 * `price_max`, a level is in LEVELS' spelling, `q` is trimmed and never empty.
 */
export interface TeacherFilters {
  q?: string;
  language?: string;
  level?: Level;
  /** where the teacher lives (a country's name, matched whatever its case) */
  country?: string;
  /** at least this hourly price (inclusive) */
  price_min?: number;
  /** at most this hourly price (inclusive) */
  price_max?: number;
}

/** The filters and the order: everything the catalogue page keeps in its URL. */
export interface CatalogueQuery extends TeacherFilters {
  sort?: Sort;
}

export const isLevel = (value: unknown): value is Level => LEVELS.includes(value as Level);

export function isLanguage(value: string): boolean {
  return value.length >= 1 && value.length <= LANGUAGE_MAX && LANGUAGE_PATTERN.test(value);
}

export function isPrice(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= PRICE_MAX;
}
