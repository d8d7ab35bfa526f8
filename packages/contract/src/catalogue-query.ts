/**
 * The catalogue page's URL query, read and written without zod (the page loads it on
 * demand; the first load never needs it). teachers.ts's zod schemas read the same URL;
 * rules.test.ts checks that both agree.
 */
import { TAG_FILTERS, tagFrom } from './catalogue-filters.js';
import {
  hasControlCharacter,
  isPrice,
  PRICE_PATTERN,
  SEARCH_MAX,
  SORTS,
  type CatalogueQuery,
  type Level,
  type Sort,
  type TeacherFilters,
} from './rules.js';

/** The order a query gets when it names none: relevance with a search, rating without. */
export const defaultSort = (filters: TeacherFilters): Sort => (filters.q ? 'relevance' : 'rating');

export const isSort = (value: unknown): value is Sort => SORTS.includes(value as Sort);

/** The level in LEVELS' spelling, whatever its case ("b1 intermediate" → "B1 Intermediate"). */
export function levelFrom(value: string): Level | undefined {
  return tagFrom('level', value) as Level | undefined;
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
  for (const filter of TAG_FILTERS) {
    const value = tagFrom(filter, search.get(filter));
    if (value !== undefined) (out as Record<string, string>)[filter] = value;
  }
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
  for (const filter of TAG_FILTERS) {
    const value = query[filter];
    if (value) search.set(filter, value);
  }
  if (query.price_min !== undefined) search.set('price_min', String(query.price_min));
  if (query.price_max !== undefined) search.set('price_max', String(query.price_max));
  return search;
}
