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
  /** at least this hourly price (inclusive) */
  price_min?: number;
  /** at most this hourly price (inclusive) */
  price_max?: number;
}

/** The filters and the order: everything the catalogue page keeps in its URL. */
export interface CatalogueQuery extends TeacherFilters {
  sort?: Sort;
}

/** The order a query gets when it names none: relevance with a search, rating without. */
export const defaultSort = (filters: TeacherFilters): Sort => (filters.q ? 'relevance' : 'rating');

export const isLevel = (value: unknown): value is Level => LEVELS.includes(value as Level);
export const isSort = (value: unknown): value is Sort => SORTS.includes(value as Sort);

/** The level in LEVELS' spelling, whatever its case ("b1 intermediate" → "B1 Intermediate"). */
export function levelFrom(value: string): Level | undefined {
  if (value.length > LEVEL_MAX) return undefined;
  const wanted = value.trim().toLowerCase();
  return LEVELS.find((level) => level.toLowerCase() === wanted);
}

export function isLanguage(value: string): boolean {
  return value.length >= 1 && value.length <= LANGUAGE_MAX && LANGUAGE_PATTERN.test(value);
}

export function isPrice(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= PRICE_MAX;
}

/** A price from a query string: whole dollars 0…PRICE_MAX, else undefined. */
export function priceFrom(raw: string | null): number | undefined {
  if (raw === null || raw.length > 5 || !PRICE_PATTERN.test(raw)) return undefined;
  const price = Number(raw);
  return isPrice(price) ? price : undefined;
}

/**
 * Reads the catalogue query from a URL query string; invalid values are dropped, not
 * thrown (the page then corrects its URL): a level is matched whatever its case, `price`
 * means `price_max` (the smaller wins when both are there), a minimum above the maximum is
 * dropped, `relevance` without a search is dropped, a search is cut at SEARCH_MAX.
 */
export function parseFilters(search: URLSearchParams): CatalogueQuery {
  const out: CatalogueQuery = {};
  const q = search.get('q')?.slice(0, SEARCH_MAX);
  if (q?.trim() && !hasControlCharacter(q)) out.q = q.trim();
  const language = search.get('language')?.trim();
  if (language && isLanguage(language)) out.language = language;
  const level = levelFrom(search.get('level') ?? '');
  if (level) out.level = level;
  const price = priceFrom(search.get('price'));
  const priceMax = priceFrom(search.get('price_max'));
  const max = price === undefined ? priceMax : priceMax === undefined ? price : Math.min(price, priceMax);
  if (max !== undefined) out.price_max = max;
  const min = priceFrom(search.get('price_min'));
  if (min !== undefined && (max === undefined || min <= max)) out.price_min = min;
  const sort = search.get('sort');
  if (isSort(sort) && (sort !== 'relevance' || out.q)) out.sort = sort;
  return out;
}

/**
 * Writes the query into a query string in a stable order; empty values and the default
 * sort are left out, so one query has one URL.
 */
export function filtersToSearch(query: CatalogueQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (query.q) search.set('q', query.q);
  if (query.sort && query.sort !== defaultSort(query)) search.set('sort', query.sort);
  if (query.language) search.set('language', query.language);
  if (query.level) search.set('level', query.level);
  if (query.price_min !== undefined) search.set('price_min', String(query.price_min));
  if (query.price_max !== undefined) search.set('price_max', String(query.price_max));
  return search;
}
