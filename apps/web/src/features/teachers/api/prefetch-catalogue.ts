import type { AppDispatch } from '../../../store';
import { setFilters } from '../filters-slice';
import { facetFilters, listFilters, readCatalogueUrl } from '../lib/catalogue-url';
import { toFiltersState } from '../lib/format';
import { teachersApi } from './teachers-api';

/**
 * Fetches into the store what the catalogue page at this URL query reads — the list's
 * first page (from the URL's cursor, if any) and the facets — with the very arguments its
 * hooks use (useUrlFilters), so a page rendered from this store (the server's HTML, then the
 * browser's hydration) shows the cards without asking again. Resolves once both have
 * answered, well or not (a failure is in the store too: the page shows its error state).
 *
 * The `filters` slice is set from the URL too, as the page's effect mirrors it in the browser:
 * the cards read it (Book trial lesson asks about the list's language), and since they hydrate
 * after the page's effects have run (decision 137), the server's HTML must already say what the
 * store will say then.
 *
 * The queries stay subscribed: a store made for one server request is dropped with it, and
 * an unsubscribed entry would start a removal timer that keeps that store alive meanwhile.
 */
export function prefetchCatalogue(dispatch: AppDispatch, search: URLSearchParams): Promise<unknown> {
  const query = readCatalogueUrl(search);
  dispatch(setFilters(toFiltersState(listFilters(query))));
  return Promise.all([
    dispatch(teachersApi.endpoints.getTeachers.initiate(query)),
    dispatch(teachersApi.endpoints.getFacets.initiate(facetFilters(query))),
  ]);
}
