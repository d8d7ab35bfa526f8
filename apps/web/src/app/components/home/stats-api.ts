import { isStats } from '@learnlingo/contract/plain';
import type { Stats } from '@learnlingo/contract';
import { api } from '../../../lib/api';

/** GET /api/stats: the home page's figures, computed by the server from the live data. */
export const statsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getStats: build.query<Stats, void>({
      query: () => '/stats',
      transformResponse: (body: unknown) => {
        // zod-free guard (agrees with statsSchema): the home page is on the first-load path
        if (!isStats(body)) throw new TypeError('Unexpected stats answer');
        return body;
      },
      providesTags: ['Stats'],
    }),
  }),
});

export const { useGetStatsQuery } = statsApi;
