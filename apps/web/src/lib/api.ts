import type { Middleware, WithSlice } from '@reduxjs/toolkit';
import { createApi, fetchBaseQuery, setupListeners } from '@reduxjs/toolkit/query/react';
import { injectLazySlice } from '../app/store';

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
  // Absolute so that it also works where fetch needs a full URL (tests under jsdom).
  baseQuery: fetchBaseQuery({ baseUrl: `${globalThis.location.origin}/api`, credentials: 'include' }),
  tagTypes: ['Session', 'Teachers', 'Teacher', 'Favorites', 'Stats', 'Facets', 'Slots', 'Lessons'],
  endpoints: () => ({}),
});

declare module '../app/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the api slice
  export interface LazyLoadedSlices extends WithSlice<typeof api> {}
}

/** RTK Query's focus and reconnect events, set up once per store. */
const focusAndReconnect: Middleware = (store) => {
  setupListeners(store.dispatch);
  return (next) => (action) => next(action);
};

injectLazySlice(api, api.middleware, focusAndReconnect);
