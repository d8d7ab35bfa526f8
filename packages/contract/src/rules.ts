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

/** Catalogue filters, as they appear in the page URL and the API query. */
export interface TeacherFilters {
  language?: string;
  level?: Level;
  /** at most this hourly price */
  price?: number;
}

export const isLevel = (value: unknown): value is Level => LEVELS.includes(value as Level);

export function isLanguage(value: string): boolean {
  return value.length >= 1 && value.length <= LANGUAGE_MAX && LANGUAGE_PATTERN.test(value);
}

export function isPrice(value: number): boolean {
  return Number.isFinite(value) && value > 0 && value <= PRICE_MAX;
}

/** Reads filters from a URL query string; invalid values are dropped, not thrown. */
export function parseFilters(search: URLSearchParams): TeacherFilters {
  const out: TeacherFilters = {};
  const language = search.get('language')?.trim();
  if (language && isLanguage(language)) out.language = language;
  const level = search.get('level');
  if (isLevel(level)) out.level = level;
  const rawPrice = search.get('price');
  if (rawPrice !== null && isDecimal(rawPrice)) {
    const price = Number(rawPrice);
    if (isPrice(price)) out.price = price;
  }
  return out;
}

/** Writes filters into a query string in a stable order; empty values are left out. */
export function filtersToSearch(filters: TeacherFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.language) search.set('language', filters.language);
  if (filters.level) search.set('level', filters.level);
  if (filters.price !== undefined) search.set('price', String(filters.price));
  return search;
}
