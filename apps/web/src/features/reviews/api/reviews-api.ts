import {
  importedReviewListSchema,
  importedReviewSchema,
  lessonReviewListSchema,
  lessonReviewSchema,
  lessonReviewStateSchema,
  lessonReviewStatesSchema,
  type ImportedReview,
  type LessonReview,
  type LessonReviewState,
} from '@learnlingo/contract';
import type { z } from 'zod';
import { api } from '../../../lib/api';

/** Which lesson: one of the signed-in learner's (by id), or the private link's (by token). */
export type LessonRef = { bookingId: string; token?: undefined } | { token: string; bookingId?: undefined };

const lessonPath = (ref: LessonRef) =>
  ref.token !== undefined ? `/bookings/token/${encodeURIComponent(ref.token)}` : `/bookings/${encodeURIComponent(ref.bookingId)}`;

/*
 * Reviews (issue 26): the learner's rating of a lesson, the teacher page's server-paged
 * reviews, the teacher's answers (/teach) and the school's hiding (console). The existing tags
 * are reused (a new tag name would cost bytes in the first load's api): a learner's reviews
 * are 'Lessons', a teacher page's reviews that teacher's 'Teacher' (its card changes with them).
 */
export const reviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReviewStates: build.query<z.infer<typeof lessonReviewStatesSchema>, void>({
      query: () => '/bookings/reviews',
      responseSchema: lessonReviewStatesSchema,
      providesTags: ['Lessons'],
    }),
    getReviewStateByToken: build.query<LessonReviewState, string>({
      query: (token) => `/bookings/token/${encodeURIComponent(token)}/review`,
      responseSchema: lessonReviewStateSchema,
      providesTags: (_result, _error, token) => [{ type: 'Lessons', id: token }],
    }),
    submitReview: build.mutation<LessonReviewState, LessonRef & { teacherId: string; rating: number; comment: string }>({
      query: ({ rating, comment, ...ref }) => ({ url: `${lessonPath(ref)}/review`, method: 'POST', body: { rating, comment } }),
      responseSchema: lessonReviewStateSchema,
      invalidatesTags: (_result, _error, { teacherId, token }) => ['Lessons', { type: 'Lessons', id: token }, { type: 'Teacher', id: teacherId }, 'Teachers', 'Stats'],
    }),
    reportTeacherAbsent: build.mutation<LessonReviewState, LessonRef & { teacherId: string }>({
      query: (ref) => ({ url: `${lessonPath(ref)}/teacher-absent`, method: 'POST' }),
      responseSchema: lessonReviewStateSchema,
      invalidatesTags: (_result, _error, { teacherId, token }) => ['Lessons', { type: 'Lessons', id: token }, { type: 'Teacher', id: teacherId }],
    }),
    getTeachReviews: build.query<{ items: LessonReview[] }, void>({
      query: () => '/teach/reviews',
      responseSchema: lessonReviewListSchema,
      providesTags: ['Lessons'],
    }),
    replyToReview: build.mutation<LessonReview, { id: string; teacherId: string; reply: string }>({
      query: ({ id, reply }) => ({ url: `/teach/reviews/${encodeURIComponent(id)}/reply`, method: 'POST', body: { reply } }),
      responseSchema: lessonReviewSchema,
      invalidatesTags: (_result, _error, { teacherId }) => ['Lessons', { type: 'Teacher', id: teacherId }],
    }),
    getAdminReviews: build.query<{ items: LessonReview[] }, void>({
      query: () => '/staff/reviews',
      responseSchema: lessonReviewListSchema,
      providesTags: ['Lessons'],
    }),
    hideReview: build.mutation<LessonReview, { id: string; teacherId: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/staff/reviews/${encodeURIComponent(id)}/hide`, method: 'POST', body: { reason } }),
      responseSchema: lessonReviewSchema,
      invalidatesTags: (_result, _error, { teacherId }) => ['Lessons', { type: 'Teacher', id: teacherId }, 'Teachers', 'Stats'],
    }),
    getImportedReviews: build.query<{ items: ImportedReview[] }, string>({
      query: (teacherId) => `/staff/teachers/${encodeURIComponent(teacherId)}/imported-reviews`,
      responseSchema: importedReviewListSchema,
      providesTags: (_result, _error, teacherId) => [{ type: 'Teacher', id: teacherId }],
    }),
    hideImportedReview: build.mutation<ImportedReview, { id: number; teacherId: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/staff/imported-reviews/${id}/hide`, method: 'POST', body: { reason } }),
      responseSchema: importedReviewSchema,
      invalidatesTags: (_result, _error, { teacherId }) => [{ type: 'Teacher', id: teacherId }, 'Teachers', 'Stats'],
    }),
  }),
});

export const {
  useGetReviewStatesQuery,
  useGetReviewStateByTokenQuery,
  useSubmitReviewMutation,
  useReportTeacherAbsentMutation,
  useGetTeachReviewsQuery,
  useReplyToReviewMutation,
  useGetAdminReviewsQuery,
  useHideReviewMutation,
  useGetImportedReviewsQuery,
  useHideImportedReviewMutation,
} = reviewsApi;
