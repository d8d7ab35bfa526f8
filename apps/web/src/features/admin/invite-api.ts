import {
  invitationPreviewSchema,
  invitationSchema,
  teacherInvitationsSchema,
  type AcceptInvitationInput,
  type Invitation,
  type InvitationPreview,
  type TeacherInvitations,
} from '@learnlingo/contract';
import { staffApi } from './people-api';

/** Teachers' invitations: the console's (admins only) and the invited person's (whoever holds the link). */
export const inviteApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    listInvitations: build.query<TeacherInvitations, string>({
      query: (teacherId) => `/staff/teachers/${encodeURIComponent(teacherId)}/invitations`,
      responseSchema: teacherInvitationsSchema,
      providesTags: (_result, _error, teacherId) => [{ type: 'Invitations', id: teacherId }],
    }),
    inviteTeacher: build.mutation<Invitation, { teacherId: string; email: string }>({
      query: ({ teacherId, email }) => ({ url: `/staff/teachers/${encodeURIComponent(teacherId)}/invitations`, method: 'POST', body: { email } }),
      responseSchema: invitationSchema,
      invalidatesTags: (_result, _error, { teacherId }) => [{ type: 'Invitations', id: teacherId }, 'Activity'],
    }),
    resendInvitation: build.mutation<Invitation, Invitation>({
      query: ({ id }) => ({ url: `/staff/invitations/${encodeURIComponent(id)}/resend`, method: 'POST' }),
      responseSchema: invitationSchema,
      invalidatesTags: (_result, _error, { teacherId }) => [{ type: 'Invitations', id: teacherId }, 'Activity'],
    }),
    revokeInvitation: build.mutation<Invitation, Invitation>({
      query: ({ id }) => ({ url: `/staff/invitations/${encodeURIComponent(id)}/revoke`, method: 'POST' }),
      responseSchema: invitationSchema,
      invalidatesTags: (_result, _error, { teacherId }) => [{ type: 'Invitations', id: teacherId }, 'Activity'],
    }),
    previewInvitation: build.query<InvitationPreview, string>({
      query: (token) => `/invitations/${encodeURIComponent(token)}`,
      responseSchema: invitationPreviewSchema,
    }),
    acceptInvitation: build.mutation<void, AcceptInvitationInput>({
      query: (body) => ({ url: '/invitations/accept', method: 'POST', body }),
      transformResponse: () => undefined,
    }),
  }),
});

export const {
  useListInvitationsQuery,
  useInviteTeacherMutation,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  usePreviewInvitationQuery,
  useAcceptInvitationMutation,
} = inviteApi;
