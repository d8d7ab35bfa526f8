import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { TeacherFilters } from '@learnlingo/contract';
import { useAppDispatch } from '../../../app/hooks';
import { setFilters } from '../filters-slice';
import { toFiltersState } from '../lib/format';
import { filtersToSearch, parseFilters } from '@learnlingo/contract/plain';

/**
 * The catalogue filters. The URL query is their one source of truth (shareable,
 * reloadable, Back restores them); the `filters` slice mirrors it.
 */
export function useUrlFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  const dispatch = useAppDispatch();

  // A stable key so that an unrelated re-render does not produce "new" filters.
  const key = filtersToSearch(parseFilters(searchParams)).toString();
  const filters = useMemo<TeacherFilters>(() => parseFilters(new URLSearchParams(key)), [key]);

  // Mirror the URL into the store (never the other way round).
  useEffect(() => {
    dispatch(setFilters(toFiltersState(filters)));
  }, [dispatch, filters]);

  /** Sets one filter ('' = all) in the URL: a new history entry, so Back undoes it. */
  const setFilter = useCallback(
    (name: keyof TeacherFilters, value: string) => {
      const next = filtersToSearch(filters);
      if (value) next.set(name, value);
      else next.delete(name);
      setSearchParams(filtersToSearch(parseFilters(next)));
    },
    [filters, setSearchParams],
  );

  const resetFilters = useCallback(() => setSearchParams(new URLSearchParams()), [setSearchParams]);

  return { filters, setFilter, resetFilters };
}
