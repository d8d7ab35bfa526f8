import {
  extraHoursSchema,
  teachAvailabilitySchema,
  teachPreviewSchema,
  timeOffSchema,
  type ExtraHoursEntry,
  type ExtraHoursInput,
  type TeachAvailability,
  type TeachAvailabilityInput,
  type TeachPreview,
  type TimeOff,
  type TimeOffInput,
} from '@learnlingo/contract';
import { api } from '../../lib/api';

/**
 * The signed-in teacher's hours (/api/teach/availability, time-off, extra-hours, preview;
 * decision 116). Every change refreshes the preview and the learners' slots.
 */
export const teachHoursApi = api.enhanceEndpoints({ addTagTypes: ['TeachHours'] }).injectEndpoints({
  endpoints: (build) => ({
    getTeachAvailability: build.query<TeachAvailability, void>({
      query: () => '/teach/availability',
      responseSchema: teachAvailabilitySchema,
      providesTags: ['TeachHours'],
    }),
    putTeachAvailability: build.mutation<TeachAvailability, TeachAvailabilityInput>({
      query: (body) => ({ url: '/teach/availability', method: 'PUT', body }),
      responseSchema: teachAvailabilitySchema,
      invalidatesTags: ['TeachHours', 'Slots'],
    }),
    addTimeOff: build.mutation<TimeOff, TimeOffInput>({
      query: (body) => ({ url: '/teach/time-off', method: 'POST', body }),
      responseSchema: timeOffSchema,
      invalidatesTags: ['TeachHours', 'Slots'],
    }),
    removeTimeOff: build.mutation<TimeOff, string>({
      query: (id) => ({ url: `/teach/time-off/${encodeURIComponent(id)}`, method: 'DELETE' }),
      responseSchema: timeOffSchema,
      invalidatesTags: ['TeachHours', 'Slots'],
    }),
    addExtraHours: build.mutation<ExtraHoursEntry, ExtraHoursInput>({
      query: (body) => ({ url: '/teach/extra-hours', method: 'POST', body }),
      responseSchema: extraHoursSchema,
      invalidatesTags: ['TeachHours', 'Slots'],
    }),
    removeExtraHours: build.mutation<ExtraHoursEntry, string>({
      query: (id) => ({ url: `/teach/extra-hours/${encodeURIComponent(id)}`, method: 'DELETE' }),
      responseSchema: extraHoursSchema,
      invalidatesTags: ['TeachHours', 'Slots'],
    }),
    getTeachPreview: build.query<TeachPreview, string>({
      query: (zone) => `/teach/preview?zone=${encodeURIComponent(zone)}`,
      responseSchema: teachPreviewSchema,
      providesTags: ['TeachHours'],
    }),
  }),
});

export const {
  useGetTeachAvailabilityQuery,
  usePutTeachAvailabilityMutation,
  useAddTimeOffMutation,
  useRemoveTimeOffMutation,
  useAddExtraHoursMutation,
  useRemoveExtraHoursMutation,
  useGetTeachPreviewQuery,
} = teachHoursApi;
