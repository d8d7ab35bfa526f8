import { useEffect, useState } from 'react';
import { calendarFeedSchema, type CalendarFeed } from '@learnlingo/contract';
import { CalendarFeedPanel } from '../components/ui/calendar-feed-panel';
import { api } from './api';
import { genericErrorMessage } from './api-error';
import { showToast } from './toast';

/** The owner's feed URL (GET `path`) and a new one (POST `path`/renew), by the owner's endpoint under /api. */
const feedApi = api.enhanceEndpoints({ addTagTypes: ['CalendarFeed'] }).injectEndpoints({
  endpoints: (build) => ({
    getCalendarFeed: build.query<CalendarFeed, string>({
      query: (path) => path,
      responseSchema: calendarFeedSchema,
      providesTags: (_result, _error, path) => [{ type: 'CalendarFeed', id: path }],
    }),
    renewCalendarFeed: build.mutation<CalendarFeed, string>({
      query: (path) => ({ url: `${path}/renew`, method: 'POST' }),
      responseSchema: calendarFeedSchema,
      invalidatesTags: (_result, _error, path) => [{ type: 'CalendarFeed', id: path }],
    }),
  }),
});

/**
 * A private calendar feed's panel wired to its API (decision 118): `path` is the owner's
 * endpoint under /api (`/calendar-feed` for the signed-in learner, `/teach/calendar-feed` for
 * the teacher). The URL is asked for in the browser, under the session, once the page is live.
 * Used by features/booking and features/teach, each in a lazy chunk.
 */
export function createCalendarFeed(path: string, description: string) {
  return function CalendarFeed() {
    const [live, setLive] = useState(false);
    useEffect(() => setLive(true), []);
    const { data, isError, isFetching, refetch } = feedApi.useGetCalendarFeedQuery(path, { skip: !live });
    const [renew, { isLoading }] = feedApi.useRenewCalendarFeedMutation();
    return (
      <CalendarFeedPanel
        description={description}
        url={data?.url}
        failed={isError}
        busy={isLoading || isFetching}
        onRetry={() => void refetch()}
        onRenew={async () => {
          const result = await renew(path);
          if ('error' in result) void showToast('error', genericErrorMessage(result.error));
          return !('error' in result);
        }}
      />
    );
  };
}
