import type { CatalogueQuery, TeacherFilters } from '@learnlingo/contract';
import { CURSOR_MAX, filtersToSearch, parseFilters } from '@learnlingo/contract/plain';

/**
 * What the teachers list asks for: the catalogue query and, on a page that a "Load more"
 * link opened, the cursor its first page starts at.
 */
export type ListQuery = CatalogueQuery & { cursor?: string };

/**
 * Reads the catalogue page's URL: the query (invalid values dropped, see parseFilters) and
 * the cursor of a "Load more" link (one the server could take, else none).
 */
export function readCatalogueUrl(search: URLSearchParams): ListQuery {
  const query: ListQuery = parseFilters(search);
  const cursor = search.get('cursor');
  if (cursor && cursor.length <= CURSOR_MAX) query.cursor = cursor;
  return query;
}

/** The catalogue page's URL query in its one spelling: the query's (filtersToSearch), then the cursor. */
export function catalogueSearch(query: ListQuery): URLSearchParams {
  const search = filtersToSearch(query);
  if (query.cursor) search.set('cursor', query.cursor);
  return search;
}

/** The link to a catalogue page: `/teachers?…` (the query, from `cursor` when given). */
export function catalogueHref(query: CatalogueQuery, cursor?: string): string {
  const search = catalogueSearch({ ...query, cursor }).toString();
  return search ? `/teachers?${search}` : '/teachers';
}

/** The catalogue query of a list: its query without the cursor (what the `filters` slice mirrors). */
export function listFilters(query: ListQuery): CatalogueQuery {
  const { cursor: _cursor, ...filters } = query;
  return filters;
}

/** What the facets are counted for: the query without its order or cursor. */
export function facetFilters(query: ListQuery): TeacherFilters {
  const { sort: _sort, cursor: _cursor, ...filters } = query;
  return filters;
}
