import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { CatalogueQuery } from '@learnlingo/contract';
import { CATALOGUE_FILTERS, filtersToSearch, parseFilters, TAG_FILTERS } from '@learnlingo/contract/plain';
import { useGetFacetsQuery } from '../api/teachers-api';
import { useAppDispatch } from '../../../store';
import { setFilters } from '../filters-slice';
import { toFiltersState } from '../lib/format';
import { catalogueSearch, facetFilters, listFilters, readCatalogueUrl, type ListQuery } from '../lib/catalogue-url';

/** How a change enters the history: its own entry (Back undoes it), or in place of the last. */
export interface UpdateOptions {
  replace?: boolean;
}

/**
 * The catalogue's query (search, order, filters) and the list's query (the same, from the
 * cursor of the "Load more" link the page was opened from). The URL query is their one
 * source of truth (shareable, reloadable, Back restores it); the `filters` slice mirrors it.
 * A URL that is not the query's own spelling is corrected in place (no history entry):
 * invalid values dropped, a level in any case spelt as LEVELS, the original's `price` as
 * `price_max`, and — once the facets are known — a language or a country in the catalogue's spelling.
 * The list and facets are asked for with the arguments prefetchCatalogue uses.
 */
export function useUrlFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const dispatch = useAppDispatch();

  // A stable key so that an unrelated re-render does not produce a "new" query.
  const key = catalogueSearch(readCatalogueUrl(searchParams)).toString();
  const list = useMemo<ListQuery>(() => readCatalogueUrl(new URLSearchParams(key)), [key]);
  const filters = useMemo<CatalogueQuery>(() => listFilters(list), [list]);
  // the options and their counts for this query (kept while the next ones load)
  const { data: facets } = useGetFacetsQuery(useMemo(() => facetFilters(list), [list]));

  // the catalogue's spelling of each value it names (a language, a country: CATALOGUE_FILTERS),
  // when the URL has it in another case
  let spelt: ListQuery = list;
  for (const filter of TAG_FILTERS) {
    const value = list[filter];
    const { facet, values } = CATALOGUE_FILTERS[filter];
    if (value === undefined || values.kind !== 'catalogue') continue;
    const known = facets?.[facet].find((v) => v.toLowerCase() === value.toLowerCase());
    if (known !== undefined && known !== value) spelt = { ...spelt, [filter]: known };
  }
  const corrected = spelt === list ? key : catalogueSearch(spelt).toString();

  useEffect(() => {
    if (searchParams.toString() !== corrected) setSearchParams(new URLSearchParams(corrected), { replace: true });
  }, [searchParams, corrected, setSearchParams]);

  // Mirror the URL into the store (never the other way round).
  useEffect(() => {
    dispatch(setFilters(toFiltersState(filters)));
  }, [dispatch, filters]);

  // the latest query, so an update made from a debounce timer starts from what the URL says now
  const latest = useRef(filters);
  latest.current = filters;

  /** Changes part of the query (undefined or '' = remove it); the list starts again at its first page. */
  const update = useCallback(
    (patch: Partial<CatalogueQuery>, options: UpdateOptions = {}) => {
      const merged = parseFilters(filtersToSearch({ ...latest.current, ...patch }));
      const next = filtersToSearch(merged);
      if (next.toString() === filtersToSearch(latest.current).toString()) return;
      // a second change before the new URL renders (two selects the person picked before the
      // page was live, replayed one after the other) builds on this one instead of undoing it
      latest.current = merged;
      setSearchParams(next, { replace: options.replace ?? false });
    },
    [setSearchParams],
  );

  return { filters, list, facets, update };
}
