import { useEffect, useState } from 'react';
import { calendarFeedSchema, type CalendarFeed } from '@learnlingo/contract';
import { CalendarFeedPanel } from '../../components/ui/calendar-feed-panel';
import { api } from '../../lib/api';
import { genericErrorMessage } from '../../lib/api-error';
import { showToast } from '../../lib/toast';

/** The teacher's private calendar feed (decision 118): GET /api/teach/calendar-feed and its renewal. */
const feedApi = api.enhanceEndpoints({ addTagTypes: ['TeacherCalendarFeed'] }).injectEndpoints({
  endpoints: (build) => ({
    getTeacherCalendarFeed: build.query<CalendarFeed, void>({
      query: () => '/teach/calendar-feed',
      responseSchema: calendarFeedSchema,
      providesTags: ['TeacherCalendarFeed'],
    }),
    renewTeacherCalendarFeed: build.mutation<CalendarFeed, void>({
      query: () => ({ url: '/teach/calendar-feed/renew', method: 'POST' }),
      responseSchema: calendarFeedSchema,
      invalidatesTags: ['TeacherCalendarFeed'],
    }),
  }),
});

/** /teach's calendar feed panel (a lazy chunk; the Lessons tab renders it): asked for in the browser, under the session. */
export default function TeacherCalendarFeed() {
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const { data, isError, isFetching, refetch } = feedApi.useGetTeacherCalendarFeedQuery(undefined, { skip: !live });
  const [renew, { isLoading }] = feedApi.useRenewTeacherCalendarFeedMutation();
  return (
    <CalendarFeedPanel
      description="The lessons you teach, and requests waiting for your answer, as a calendar."
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
