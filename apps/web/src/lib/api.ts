import { createApi, fetchBaseQuery } from '@reduxjs/toolkit/query/react';

/**
 * The one API client. Features add their endpoints with `api.injectEndpoints`
 * in their own `api/` module; cache tags invalidate instead of manual refetches.
 */
export const api = createApi({
  reducerPath: 'api',
  // Absolute so that it also works where fetch needs a full URL (tests under jsdom).
  baseQuery: fetchBaseQuery({ baseUrl: `${globalThis.location.origin}/api`, credentials: 'include' }),
  tagTypes: ['Session', 'Teachers', 'Teacher', 'Favorites', 'Stats', 'Facets'],
  endpoints: () => ({}),
});
