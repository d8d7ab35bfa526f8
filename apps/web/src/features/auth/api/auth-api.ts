import { isSession, isSessionUser } from '@learnlingo/contract/plain';
import type { LoginInput, RegisterInput, Session, SessionUser } from '@learnlingo/contract';
import { api } from '../../../lib/api';

/**
 * better-auth under /api/auth. Responses are checked with the contract's zod-free
 * guards: this module ships with the first page load (the session is restored at start).
 */
function sessionUserOf(body: unknown): SessionUser {
  const user = typeof body === 'object' && body !== null && 'user' in body ? body.user : undefined;
  if (!isSessionUser(user)) throw new TypeError('The server answered without a user');
  return user;
}

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
      query: (body) => ({ url: '/auth/sign-in/email', method: 'POST', body }),
      transformResponse: sessionUserOf,
      invalidatesTags: ['Session', 'Favorites'],
    }),
    signUp: build.mutation<SessionUser, RegisterInput>({
      query: (body) => ({ url: '/auth/sign-up/email', method: 'POST', body }),
      transformResponse: sessionUserOf,
      invalidatesTags: ['Session', 'Favorites'],
    }),
    signOut: build.mutation<void, void>({
      query: () => ({ url: '/auth/sign-out', method: 'POST', body: {} }),
      transformResponse: () => undefined,
      invalidatesTags: ['Session', 'Favorites'],
    }),
  }),
});

export const { useGetSessionQuery, useSignInMutation, useSignUpMutation, useSignOutMutation } = authApi;
