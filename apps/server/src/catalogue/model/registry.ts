import { CATALOGUE_FILTERS, TAG_FILTERS, type TagFacet, type TagFilter, type Teacher } from '@learnlingo/contract';

/*
 * The catalogue's registry: each teacher field once, with what it takes part in, and each
 * filter's column (the filters themselves, their kinds and URL names, are the contract's
 * CATALOGUE_FILTERS; the orders are SORT_ORDERS). What follows from it:
 *
 *   - the list and search statements' conditions and parameters (sql/teachers-repository.ts:
 *     one condition per filter, by parameter name — LIST_PARAMS, SEARCH_PARAMS);
 *   - the search index's sets (memory/search-index.ts: a set per value of each tag filter);
 *   - the counts' keys and facets (memory/catalogue-counts.ts: one key part per tag filter);
 *   - the cursor's scope (model/cursor.ts: every filter's value);
 *   - the derived tables' filter columns (sql/catalogue-writer.ts: teacher_language and
 *     teacher_search carry every tag column but the languages' own);
 *   - the contract's query schema, facets and URL reader/writer (CATALOGUE_FILTERS).
 *
 * A new field is: the column in db/schema.ts and its migration, the field in the contract's
 * teacherSchema and teacherRecordSchema, and its entry in FIELDS here. A new tag filter on
 * it adds the entry to CATALOGUE_FILTERS and TAG_COLUMNS, the column to the list's covering
 * indexes and to teacher_language / teacher_search (decision 106).
 */

/** What a field takes part in. */
export type FieldRole = 'card' | 'search' | 'filter' | 'sort' | 'facet';

/**
 * Every field of the API's teacher, with its roles: `card` (in the list's and the page's
 * JSON: all of them), `search` (in the full-text document), `filter` / `facet` (a filter
 * of CATALOGUE_FILTERS, counted in the facets), `sort` (an order's column, SORT_ORDERS).
 */
export const FIELDS = {
  id: ['card'],
  name: ['card', 'search'],
  surname: ['card', 'search'],
  languages: ['card', 'search', 'filter', 'facet'],
  levels: ['card', 'filter', 'facet'],
  rating: ['card', 'sort'],
  reviews: ['card'],
  price_per_hour: ['card', 'filter', 'sort'],
  lessons_done: ['card', 'sort'],
  avatar_url: ['card'],
  lesson_info: ['card', 'search'],
  conditions: ['card', 'search'],
  experience: ['card', 'search'],
  country: ['card', 'filter', 'facet'],
} as const satisfies Record<keyof Teacher, readonly FieldRole[]>;

/** A tag filter's column: an array of values (a teacher has several) or one value (or none). */
export interface TagColumn {
  /** the column's name in teacher, teacher_search (and teacher_language but for `languages`) */
  column: 'languages' | 'levels' | 'country';
  array: boolean;
}

/** Each tag filter's column. language also has its own table (teacher_language), read when it is set. */
export const TAG_COLUMNS: Readonly<Record<TagFilter, TagColumn>> = {
  language: { column: 'languages', array: true },
  level: { column: 'levels', array: true },
  country: { column: 'country', array: false },
};

/** The range filter's column. */
export const PRICE_COLUMN = 'price_per_hour';

export { TAG_FILTERS };
export type { TagFacet, TagFilter };

/** A tag filter's facet name (languages, levels, countries). */
export const facetOf = (filter: TagFilter): TagFacet => CATALOGUE_FILTERS[filter].facet;

/** Whether a tag filter's values are the catalogue's own spelling (matched whatever the case), not a fixed list. */
export const spelledByCatalogue = (filter: TagFilter): boolean => CATALOGUE_FILTERS[filter].values.kind === 'catalogue';

/** The tag filters' values, each set or not: the catalogue's spelling. */
export type TagValues = { [K in TagFilter]?: string | undefined };

/** Filters without a search: the tags, and the price range inclusive (no bound: ±Infinity). */
export type CountFilters = TagValues & { min: number; max: number };

/**
 * A row's tag columns, as the counts and the search index read them (TAG_COLUMNS, under the
 * columns' names): arrays of values, or one value or null. A new tag filter's column is added here.
 */
export type TagRow = {
  languages: readonly string[];
  levels: readonly string[];
  country: string | null;
};

/** The tag columns, comma-separated, on `alias` (as TagRow names them). */
export const tagColumnList = (alias: string): string => TAG_FILTERS.map((filter) => `${alias}.${TAG_COLUMNS[filter].column}`).join(', ');

/** A teacher's values of a tag filter, from a row that has the tag columns. */
export function valuesOf(row: TagRow, filter: TagFilter): readonly string[] {
  const value = row[TAG_COLUMNS[filter].column];
  if (TAG_COLUMNS[filter].array) return value as readonly string[];
  return value === null ? [] : [value as string];
}

/**
 * A tag condition in SQL on `alias`'s column, the value `param` ('' = any): an array
 * column contains it (the empty array when none: contained in every array, so the
 * condition stays a containment on the index tuple), a single column equals it.
 */
export function tagCondition(filter: TagFilter, alias: string, param: string): string {
  const { column, array } = TAG_COLUMNS[filter];
  return array
    ? `${alias}.${column} @> (case when ${param} = '' then '{}'::text[] else array[${param}] end)`
    : `(${param} = '' or ${alias}.${column} = ${param})`;
}
