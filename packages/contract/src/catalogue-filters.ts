/**
 * The catalogue's filters, declared once (zod-free: the web app's first load may read it).
 * A filter is a `tag` (one value among a teacher's, e.g. a language) or a `range` (a
 * price between two bounds). Everything that reads or writes a filter follows from this
 * table: the URL reader and writer (catalogue-query.ts), the query schema and the facets'
 * shape (teachers.ts), and on the server the statements' conditions, the search index's
 * sets, the counts' keys and the cursor's scope (apps/server/src/catalogue/model/registry.ts).
 * A new filter is an entry here and its column there (docs/decisions/106-catalogue-registry.md).
 */
import { LANGUAGE_MAX, LANGUAGE_PATTERN, LEVEL_MAX, LEVELS, type Level } from './rules.js';

/** A tag filter's values: free text the catalogue spells (matched whatever its case), or a fixed list. */
export type TagValues =
  | { kind: 'catalogue'; max: number; pattern: RegExp }
  | { kind: 'fixed'; max: number; values: readonly string[] };

export interface TagFilterSpec {
  kind: 'tag';
  /** the facet's name in GET /api/teachers/facets (the values present, and `counts.<facet>`) */
  facet: string;
  values: TagValues;
}

export interface RangeFilterSpec {
  kind: 'range';
  /** the URL's names of the bounds, inclusive */
  min: string;
  max: string;
}

/** Longest country name accepted (letters, spaces, `-`, `'`, `(`, `)` as a language's) (the longest in use is ~40 characters). */
export const COUNTRY_MAX = 60;

/** The filters, in the URL's order. Their keys are the URL's names of the tag filters. */
export const CATALOGUE_FILTERS = {
  language: { kind: 'tag', facet: 'languages', values: { kind: 'catalogue', max: LANGUAGE_MAX, pattern: LANGUAGE_PATTERN } },
  level: { kind: 'tag', facet: 'levels', values: { kind: 'fixed', max: LEVEL_MAX, values: LEVELS } },
  country: { kind: 'tag', facet: 'countries', values: { kind: 'catalogue', max: COUNTRY_MAX, pattern: LANGUAGE_PATTERN } },
  price: { kind: 'range', min: 'price_min', max: 'price_max' },
} as const satisfies Record<string, TagFilterSpec | RangeFilterSpec>;

export type CatalogueFilter = keyof typeof CATALOGUE_FILTERS;
/** The tag filters' names (language, level, country). */
export type TagFilter = {
  [K in CatalogueFilter]: (typeof CATALOGUE_FILTERS)[K] extends { kind: 'tag' } ? K : never;
}[CatalogueFilter];
export const TAG_FILTERS = (Object.keys(CATALOGUE_FILTERS) as CatalogueFilter[]).filter(
  (name): name is TagFilter => CATALOGUE_FILTERS[name].kind === 'tag',
);
/** A tag filter's facet name (languages, levels, countries). */
export type TagFacet = (typeof CATALOGUE_FILTERS)[TagFilter]['facet'];
/** A tag filter's value type: a level is one of LEVELS, the others any name. */
export type TagValue<K extends TagFilter> = K extends 'level' ? Level : string;

/**
 * A tag filter's value from a URL or a query, in the spelling the filter compares: a
 * fixed value in its list's spelling whatever the case, a name trimmed; undefined when
 * it is not one (a name trimmed, then capped, then matched: the query schema's order).
 */
export function tagFrom(filter: TagFilter, raw: string | null | undefined): string | undefined {
  const values: TagValues = CATALOGUE_FILTERS[filter].values;
  if (raw === null || raw === undefined) return undefined;
  if (values.kind === 'fixed') {
    if (raw.length > values.max) return undefined;
    const wanted = raw.trim().toLowerCase();
    return values.values.find((v) => v.toLowerCase() === wanted);
  }
  const value = raw.trim();
  return value.length >= 1 && value.length <= values.max && values.pattern.test(value) ? value : undefined;
}
