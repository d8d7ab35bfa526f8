import { isSession, isSessionUser } from '@learnlingo/contract/plain';
import type {
  ChangePasswordInput,
  DeleteAccountInput,
  LoginInput,
  RegisterInput,
  RequestPasswordResetInput,
  ResetPasswordInput,
  Session,
  SessionUser,
  UpdateNameInput,
} from '@learnlingo/contract';
import { startAppListening } from '../../../store';
import { api } from '../../../lib/api';
import { loggedOut } from '../auth-slice';

/**
 * better-auth under /api/auth, its own standard endpoints. Responses are checked with
 * the contract's zod-free guards.
 */
function sessionUserOf(body: unknown): SessionUser {
  const user = typeof body === 'object' && body !== null && 'user' in body ? body.user : undefined;
  if (!isSessionUser(user)) throw new TypeError('The server answered without a user');
  return user;
}

const post = <T>(url: string, body: T) => ({ url, method: 'POST', body });

/** Where the e-mailed links send the user back to (relative: better-auth resolves them on its origin). */
export const RESET_PASSWORD_PATH = '/reset-password';
/** Where a confirmation link lands (as the server's own links, auth-account.ts): /account says it worked. */
export const EMAIL_CONFIRMED_PATH = '/account?email=confirmed';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSession: build.query<Session, void>({
      query: () => '/auth/get-session',
      transformResponse: (body: unknown) => {
        if (!isSession(body)) throw new TypeError('Unexpected session answer');
        return body;
      },
      providesTags: ['Session'],
    }),
    signIn: build.mutation<SessionUser, LoginInput>({
      query: (body) => post('/auth/sign-in/email', body),
      transformResponse: sessionUserOf,
      invalidatesTags: ['Session', 'Favorites'],
    }),
    signUp: build.mutation<SessionUser, RegisterInput>({
      query: (body) => post('/auth/sign-up/email', body),
      transformResponse: sessionUserOf,
      invalidatesTags: ['Session', 'Favorites'],
    }),
    signOut: build.mutation<void, void>({
      query: () => post('/auth/sign-out', {}),
      transformResponse: () => undefined,
      invalidatesTags: ['Session', 'Favorites'],
    }),
    /** Always answers the same, whether or not the e-mail has an account. */
    requestPasswordReset: build.mutation<void, RequestPasswordResetInput>({
      query: ({ email }) => post('/auth/request-password-reset', { email, redirectTo: RESET_PASSWORD_PATH }),
      transformResponse: () => undefined,
    }),
    resetPassword: build.mutation<void, ResetPasswordInput & { token: string }>({
      query: ({ newPassword, token }) => post('/auth/reset-password', { newPassword, token }),
      transformResponse: () => undefined,
    }),
    updateName: build.mutation<void, UpdateNameInput>({
      query: ({ name }) => post('/auth/update-user', { name }),
      transformResponse: () => undefined,
      invalidatesTags: ['Session'],
    }),
    /** The other sessions always end with a new password; this one gets a fresh cookie. */
    changePassword: build.mutation<void, ChangePasswordInput>({
      query: ({ currentPassword, newPassword }) =>
        post('/auth/change-password', { currentPassword, newPassword, revokeOtherSessions: true }),
      transformResponse: () => undefined,
    }),
    revokeOtherSessions: build.mutation<void, void>({
      query: () => post('/auth/revoke-other-sessions', {}),
      transformResponse: () => undefined,
    }),
    deleteAccount: build.mutation<void, DeleteAccountInput>({
      query: ({ password }) => post('/auth/delete-user', { password }),
      transformResponse: () => undefined,
    }),
    /**
     * Whether a reset link's token still works (not used, not expired): better-auth's own
     * check, which answers with a redirect to the page, `?error=INVALID_TOKEN` when it does
     * not. Asked by the server while it renders /reset-password (a redirect it can read).
     */
    checkResetLink: build.query<boolean, string>({
      query: (token) => ({
        url: `/auth/reset-password/${encodeURIComponent(token)}?callbackURL=${encodeURIComponent(RESET_PASSWORD_PATH)}`,
        redirect: 'manual',
        responseHandler: 'text',
        validateStatus: (response) => response.status >= 300 && response.status < 400,
      }),
      transformResponse: (_body: unknown, meta) => {
        const location = meta?.response?.headers.get('location');
        if (!location) throw new TypeError('The reset link check answered without a redirect');
        return !new URL(location, 'http://localhost').searchParams.has('error');
      },
    }),
    sendVerificationEmail: build.mutation<void, { email: string }>({
      query: ({ email }) => post('/auth/send-verification-email', { email, callbackURL: EMAIL_CONFIRMED_PATH }),
      transformResponse: () => undefined,
    }),
  }),
});

export const {
  useGetSessionQuery,
  useSignInMutation,
  useSignUpMutation,
  useRequestPasswordResetMutation,
  useResetPasswordMutation,
  useUpdateNameMutation,
  useChangePasswordMutation,
  useRevokeOtherSessionsMutation,
  useDeleteAccountMutation,
  useSendVerificationEmailMutation,
} = authApi;

/**
 * However the session ended (logout, another tab, a 401, a deleted account), no cached
 * answer of the last user outlives it.
 */
startAppListening({
  actionCreator: loggedOut,
  effect: (_action, listenerApi) => {
    listenerApi.dispatch(api.util.resetApiState());
  },
});
