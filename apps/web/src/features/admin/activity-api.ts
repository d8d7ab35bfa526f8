import { activityPageSchema, type ActivityPage } from '@learnlingo/contract';
import { staffApi } from './people-api';

/** The audit log (admins only), newest first, a page at a time (`before`: the last id of the page before). */
export const activityApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    listActivity: build.query<ActivityPage, number | null>({
      query: (before) => ({ url: '/staff/activity', params: before === null ? {} : { before } }),
      responseSchema: activityPageSchema,
      providesTags: ['Activity'],
    }),
  }),
});

export const { useListActivityQuery } = activityApi;

/** `?before=` of an Activity URL: an entry id, or null for the newest page. */
export function activityBeforeOf(search: URLSearchParams): number | null {
  const raw = search.get('before') ?? '';
  return /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : null;
}
