import { useEffect, useState } from 'react';
import { calendarFeedSchema, type CalendarFeed } from '@learnlingo/contract';
import { CalendarFeedPanel } from '../../components/ui/calendar-feed-panel';
import { api } from '../../lib/api';
import { genericErrorMessage } from '../../lib/api-error';
import { showToast } from '../../lib/toast';

/** The signed-in learner's private calendar feed (decision 118): GET /api/calendar-feed and its renewal. */
const feedApi = api.enhanceEndpoints({ addTagTypes: ['LearnerCalendarFeed'] }).injectEndpoints({
  endpoints: (build) => ({
    getLearnerCalendarFeed: build.query<CalendarFeed, void>({
      query: () => '/calendar-feed',
      responseSchema: calendarFeedSchema,
      providesTags: ['LearnerCalendarFeed'],
    }),
    renewLearnerCalendarFeed: build.mutation<CalendarFeed, void>({
      query: () => ({ url: '/calendar-feed/renew', method: 'POST' }),
      responseSchema: calendarFeedSchema,
      invalidatesTags: ['LearnerCalendarFeed'],
    }),
  }),
});

/** My lessons' calendar feed panel (a lazy chunk): asked for in the browser, under the session. */
export default function LearnerCalendarFeed() {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const { data, isError, isFetching, refetch } = feedApi.useGetLearnerCalendarFeedQuery(undefined, { skip: !live });
  const [renew, { isLoading }] = feedApi.useRenewLearnerCalendarFeedMutation();
  return (
    <CalendarFeedPanel
      description="Your trial lessons as a calendar."
      url={data?.url}
      failed={isError}
      busy={isLoading || isFetching}
      onRetry={() => void refetch()}
      onRenew={async () => {
        const result = await renew();
        if ('error' in result) void showToast('error', genericErrorMessage(result.error));
        return !('error' in result);
      }}
    />
  );
}
