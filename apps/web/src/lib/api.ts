import type { Middleware, WithSlice } from '@reduxjs/toolkit';
import {
  createApi,
  fetchBaseQuery,
  setupListeners,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { injectLazySlice, lazySliceInjected, type StoreExtra } from '../store';
import { SSR_ORIGIN } from './ssr-origin';
import { retryAfterSeconds } from './api-error';

// Absolute so that it also works where fetch needs a full URL (tests under jsdom).
const fetchQuery = fetchBaseQuery({ baseUrl: `${globalThis.location?.origin ?? SSR_ORIGIN}/api`, credentials: 'include' });

/**
 * fetchBaseQuery — on the server the store's own base query instead, which answers in-process
 * with the visitor's cookie (lib/server-query.ts) —, and a 429's wait (`Retry-After`) kept in
 * the error's body as `retryAfter` (seconds), where the messages read it (lib/api-error.ts).
 */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta> = async (args, queryApi, extra) => {
  const { serverQuery } = queryApi.extra as StoreExtra;
  const result = await (serverQuery ?? fetchQuery)(args, queryApi, extra);
  if (result.error?.status === 429) {
    const retryAfter = retryAfterSeconds(result.meta?.response?.headers);
    const body: unknown = result.error.data;
    const data = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {};
    if (retryAfter !== undefined) return { error: { status: 429, data: { ...data, retryAfter } }, meta: result.meta };
  }
  return result;
};

/**
 * The one API client. Features add their endpoints with `api.injectEndpoints`
 * in their own `api/` module; cache tags invalidate instead of manual refetches.
 *
 * Not part of the first page load: the first module that imports this one (a lazy
 * page, a form, logout) brings RTK Query with it, and the `api` slice and its
 * middleware then join the store before any request can start.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  // the server's cache, handed over with the page, when this slice joins the store
  extractRehydrationInfo: (action, { reducerPath }) =>
    lazySliceInjected.match(action) && action.payload.path === reducerPath ? (action.payload.state as never) : undefined,
  tagTypes: ['Session', 'Teachers', 'Teacher', 'Favorites', 'Stats', 'Facets', 'Slots', 'Lessons'],
  endpoints: () => ({}),
});

declare module '../store/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the api slice
  export interface LazyLoadedSlices extends WithSlice<typeof api> {}
}

/** RTK Query's focus and reconnect events, set up once per store. */
const focusAndReconnect: Middleware = (store) => {
  setupListeners(store.dispatch);
  return (next) => (action) => next(action);
};

injectLazySlice(api, api.middleware, focusAndReconnect);
