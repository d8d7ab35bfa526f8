import type { AppDispatch } from '../../../store';
import { facetFilters, readCatalogueUrl } from '../lib/catalogue-url';
import { teachersApi } from './teachers-api';

/**
 * Fetches into the store what the catalogue page at this URL query reads — the list's
 * first page (from the URL's cursor, if any) and the facets — with the very arguments its
 * hooks use (useUrlFilters), so a page rendered from this store (the server's HTML, then the
 * browser's hydration) shows the cards without asking again. Resolves once both have
 * answered, well or not (a failure is in the store too: the page shows its error state).
 *
 * The queries stay subscribed: a store made for one server request is dropped with it, and
 * an unsubscribed entry would start a removal timer that keeps that store alive meanwhile.
 */
export function prefetchCatalogue(dispatch: AppDispatch, search: URLSearchParams): Promise<unknown> {
  const query = readCatalogueUrl(search);
  return Promise.all([
    dispatch(teachersApi.endpoints.getTeachers.initiate(query)),
    dispatch(teachersApi.endpoints.getFacets.initiate(facetFilters(query))),
  ]);
}
