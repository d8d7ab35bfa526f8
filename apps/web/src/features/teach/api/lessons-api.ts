import {
  teachLessonSchema,
  teachLessonsFirstPagesSchema,
  teachLessonsPageSchema,
  type TeachLesson,
  type TeachLessonsFirstPages,
  type TeachLessonsPage,
  type TeachLessonView,
} from '@learnlingo/contract';
import { api } from '../../../lib/api';

/** One page of a view of the teacher's lessons: the first (no cursor) or the one a "More" asked for. */
export interface TeachLessonsArgs {
  view: TeachLessonView;
  cursor?: string | undefined;
}

/*
 * The teacher's Lessons (issue 25): the three views, paged by the server's cursors, and the
 * answers to a lesson (accept, decline, cancel). The existing 'Lessons' tag is reused (a new
 * tag name would cost bytes in the first load's api): an answer refetches every page shown.
 */
export const teachLessonsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getTeachLessons: build.query<TeachLessonsPage, TeachLessonsArgs>({
      query: ({ view, cursor }) => ({ url: '/teach/lessons', params: cursor === undefined ? { view } : { view, cursor } }),
      responseSchema: teachLessonsPageSchema,
      providesTags: ['Lessons'],
    }),
    acceptLesson: build.mutation<TeachLesson, { id: string }>({
      query: ({ id }) => ({ url: `/teach/lessons/${encodeURIComponent(id)}/accept`, method: 'POST' }),
      responseSchema: teachLessonSchema,
      invalidatesTags: ['Lessons', 'Slots'],
    }),
    declineLesson: build.mutation<TeachLesson, { id: string; reason?: string | undefined }>({
      query: ({ id, reason }) => ({ url: `/teach/lessons/${encodeURIComponent(id)}/decline`, method: 'POST', body: reason ? { reason } : {} }),
      responseSchema: teachLessonSchema,
      invalidatesTags: ['Lessons', 'Slots'],
    }),
    cancelLesson: build.mutation<TeachLesson, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/teach/lessons/${encodeURIComponent(id)}/cancel`, method: 'POST', body: { reason } }),
      responseSchema: teachLessonSchema,
      invalidatesTags: ['Lessons', 'Slots'],
    }),
  }),
});

/**
 * The first page of each view in one request (the server's render of the tab): each page goes
 * into getTeachLessons' cache, which the sections read; the entry itself keeps nothing, so the
 * page's data travels to the browser once.
 */
export const teachLessonsFirstPagesApi = teachLessonsApi.injectEndpoints({
  endpoints: (build) => ({
    loadTeachLessonsFirstPages: build.query<null, void>({
      async queryFn(_arg, { dispatch }, _extra, baseQuery) {
        const result = await baseQuery('/teach/lessons/first-pages');
        if (result.error) return { error: result.error };
        const parsed = teachLessonsFirstPagesSchema.safeParse(result.data);
        if (!parsed.success) return { error: { status: 'CUSTOM_ERROR', error: 'An unexpected answer', data: result.data } };
        const pages: TeachLessonsFirstPages = parsed.data;
        const views = ['requests', 'upcoming', 'past'] as const;
        dispatch(teachLessonsApi.util.upsertQueryEntries(views.map((view) => ({ endpointName: 'getTeachLessons', arg: { view, cursor: undefined }, value: pages[view] }))));
        return { data: null };
      },
    }),
  }),
});

export const { useGetTeachLessonsQuery, useAcceptLessonMutation, useDeclineLessonMutation, useCancelLessonMutation } = teachLessonsApi;
