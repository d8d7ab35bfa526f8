import {
  adminBookingPageSchema,
  adminBookingSchema,
  adminTeacherPageSchema,
  adminTeacherSchema,
  closureSchema,
  photoUploadedSchema,
  schoolSettingsSchema,
  type AdminBooking,
  type AdminBookingPage,
  type AdminBookingQuery,
  type AdminTeacher,
  type AdminTeacherCreate,
  type AdminTeacherPage,
  type AdminTeacherPatch,
  type AdminTeacherQuery,
  type Closure,
  type ClosureInput,
  type PhotoUploaded,
  type SchoolSettings,
  type SchoolSettingsInput,
  type TeacherStatusChange,
} from '@learnlingo/contract';
import { api } from '../../lib/api';

/** A query string of the defined values. */
const search = (query: Record<string, string | number | undefined>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
};

/**
 * The console's Teachers, Bookings and School settings (/api/staff, admins only). Their
 * tags are the console's own: an edit refreshes the console's tables, the catalogue's pages
 * follow the server's change feed.
 */
export const staffConsoleApi = api.enhanceEndpoints({ addTagTypes: ['StaffTeachers', 'StaffTeacher', 'StaffBookings', 'StaffSchool'] }).injectEndpoints({
  endpoints: (build) => ({
    getStaffTeachers: build.query<AdminTeacherPage, AdminTeacherQuery>({
      query: ({ q, status, page }) => `/staff/teachers${search({ q, status, page: page === 1 ? undefined : (page as number | undefined) })}`,
      responseSchema: adminTeacherPageSchema,
      providesTags: ['StaffTeachers'],
    }),
    getStaffTeacher: build.query<AdminTeacher, string>({
      query: (id) => `/staff/teachers/${encodeURIComponent(id)}`,
      responseSchema: adminTeacherSchema,
      providesTags: (_r, _e, id) => [{ type: 'StaffTeacher', id }],
    }),
    createStaffTeacher: build.mutation<AdminTeacher, AdminTeacherCreate>({
      query: (body) => ({ url: '/staff/teachers', method: 'POST', body }),
      responseSchema: adminTeacherSchema,
      invalidatesTags: ['StaffTeachers', 'Teachers', 'Facets', 'Stats'],
    }),
    updateStaffTeacher: build.mutation<AdminTeacher, { id: string; patch: AdminTeacherPatch }>({
      query: ({ id, patch }) => ({ url: `/staff/teachers/${encodeURIComponent(id)}`, method: 'PATCH', body: patch }),
      responseSchema: adminTeacherSchema,
      invalidatesTags: (_r, _e, { id }) => ['StaffTeachers', { type: 'StaffTeacher', id }, 'Teachers', { type: 'Teacher', id }, 'Facets'],
    }),
    setStaffTeacherStatus: build.mutation<AdminTeacher, { id: string; change: TeacherStatusChange }>({
      query: ({ id, change }) => ({ url: `/staff/teachers/${encodeURIComponent(id)}/status`, method: 'POST', body: change }),
      responseSchema: adminTeacherSchema,
      invalidatesTags: (_r, _e, { id }) => ['StaffTeachers', { type: 'StaffTeacher', id }, 'Teachers', { type: 'Teacher', id }, 'Facets', 'Stats'],
    }),
    uploadStaffPhoto: build.mutation<PhotoUploaded, File>({
      query: (file) => ({ url: '/staff/photos', method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream' } }),
      responseSchema: photoUploadedSchema,
    }),
    getStaffBookings: build.query<AdminBookingPage, AdminBookingQuery>({
      query: ({ teacherId, from, to, status, page }) => `/staff/bookings${search({ teacherId, from, to, status, page: page === 1 ? undefined : (page as number | undefined) })}`,
      responseSchema: adminBookingPageSchema,
      providesTags: ['StaffBookings'],
    }),
    cancelStaffBooking: build.mutation<AdminBooking, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/staff/bookings/${encodeURIComponent(id)}/cancel`, method: 'POST', body: { reason } }),
      responseSchema: adminBookingSchema,
      invalidatesTags: ['StaffBookings', 'StaffTeachers', 'Slots', 'Lessons'],
    }),
    getStaffSchool: build.query<SchoolSettings, void>({
      query: () => '/staff/school',
      responseSchema: schoolSettingsSchema,
      providesTags: ['StaffSchool'],
    }),
    putStaffSchool: build.mutation<SchoolSettings, SchoolSettingsInput>({
      query: (body) => ({ url: '/staff/school', method: 'PUT', body }),
      responseSchema: schoolSettingsSchema,
      invalidatesTags: ['StaffSchool', 'Slots'],
    }),
    addStaffClosure: build.mutation<Closure, ClosureInput>({
      query: (body) => ({ url: '/staff/school/closures', method: 'POST', body }),
      responseSchema: closureSchema,
      invalidatesTags: ['StaffSchool', 'Slots'],
    }),
    removeStaffClosure: build.mutation<null, string>({
      query: (id) => ({ url: `/staff/school/closures/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['StaffSchool', 'Slots'],
    }),
  }),
});

export const {
  useGetStaffTeachersQuery,
  useGetStaffTeacherQuery,
  useCreateStaffTeacherMutation,
  useUpdateStaffTeacherMutation,
  useSetStaffTeacherStatusMutation,
  useUploadStaffPhotoMutation,
  useGetStaffBookingsQuery,
  useCancelStaffBookingMutation,
  useGetStaffSchoolQuery,
  usePutStaffSchoolMutation,
  useAddStaffClosureMutation,
  useRemoveStaffClosureMutation,
} = staffConsoleApi;

/** The field → message map of a refused request (400 with fields), or {} */
export function fieldErrors(error: unknown): Record<string, string> {
  const data = (error as { data?: { error?: { fields?: Record<string, string>; message?: string } } } | undefined)?.data;
  return data?.error?.fields ?? {};
}

/** A refused request's message for the form as a whole. */
export function formError(error: unknown): string {
  const data = (error as { data?: { error?: { message?: string } } } | undefined)?.data;
  return data?.error?.message ?? 'Something went wrong; please try again.';
}
