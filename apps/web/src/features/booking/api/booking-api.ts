import type { BookingCreated, BookingRequest, Lesson, LessonList, SlotsResponse } from '@learnlingo/contract';
import type { FormEcho } from '@learnlingo/contract/plain';
import { bookingCreatedSchema, lessonListSchema, lessonSchema, slotsResponseSchema } from '@learnlingo/contract';
import { api } from '../../../lib/api';

export const bookingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** A teacher's free lesson starts (UTC) over the whole bookable window. */
    getSlots: build.query<SlotsResponse, string>({
      query: (teacherId) => `/teachers/${encodeURIComponent(teacherId)}/slots`,
      responseSchema: slotsResponseSchema,
      providesTags: (_result, _error, teacherId) => [{ type: 'Slots', id: teacherId }],
      // times go stale: ask again whenever a picker opens
      keepUnusedDataFor: 0,
    }),
    /**
     * What the booking page's last post brought back (decision 105), by teacher: kept here by
     * the server's render (upsertQueryData), so it reaches the browser with the page's data;
     * never fetched (null when there is none).
     */
    getBookingEcho: build.query<FormEcho | null, string>({
      queryFn: () => ({ data: null }),
    }),
    createBooking: build.mutation<BookingCreated, BookingRequest>({
      query: (body) => ({ url: '/bookings', method: 'POST', body }),
      responseSchema: bookingCreatedSchema,
      invalidatesTags: (_result, _error, { teacherId }) => [{ type: 'Slots', id: teacherId }, 'Lessons'],
    }),
    getLessons: build.query<LessonList, void>({
      query: () => '/bookings',
      responseSchema: lessonListSchema,
      providesTags: ['Lessons'],
    }),
    cancelLesson: build.mutation<Lesson, { id: string; teacherId: string }>({
      query: ({ id }) => ({ url: `/bookings/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      responseSchema: lessonSchema,
      invalidatesTags: (_result, _error, { teacherId }) => ['Lessons', { type: 'Slots', id: teacherId }],
    }),
    getBookingByToken: build.query<Lesson, string>({
      query: (token) => `/bookings/token/${encodeURIComponent(token)}`,
      responseSchema: lessonSchema,
      providesTags: (_result, _error, token) => [{ type: 'Lessons', id: token }],
    }),
    /** A pending booking's e-mail link: makes it a lesson (410 BOOKING_EXPIRED once its hold is over). */
    confirmBookingByToken: build.mutation<Lesson, { token: string; teacherId: string }>({
      query: ({ token }) => ({ url: `/bookings/token/${encodeURIComponent(token)}/confirm`, method: 'POST' }),
      responseSchema: lessonSchema,
      invalidatesTags: (_result, _error, { token, teacherId }) => [{ type: 'Lessons', id: token }, 'Lessons', { type: 'Slots', id: teacherId }],
    }),
    cancelBookingByToken: build.mutation<Lesson, { token: string; teacherId: string }>({
      query: ({ token }) => ({ url: `/bookings/token/${encodeURIComponent(token)}/cancel`, method: 'POST' }),
      responseSchema: lessonSchema,
      invalidatesTags: (_result, _error, { token, teacherId }) => [{ type: 'Lessons', id: token }, { type: 'Slots', id: teacherId }],
    }),
  }),
});

export const {
  useGetSlotsQuery,
  useGetBookingEchoQuery,
  useCreateBookingMutation,
  useGetLessonsQuery,
  useCancelLessonMutation,
  useGetBookingByTokenQuery,
  useCancelBookingByTokenMutation,
  useConfirmBookingByTokenMutation,
} = bookingApi;

/** Where a lesson's calendar file is: the owner's URL, or the private link's. */
export const calendarUrl = (lesson: Pick<Lesson, 'id'>, token?: string) =>
  token ? `/api/bookings/token/${encodeURIComponent(token)}/calendar.ics` : `/api/bookings/${encodeURIComponent(lesson.id)}/calendar.ics`;
