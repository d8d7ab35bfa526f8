import type { Dispatch } from '@reduxjs/toolkit';
import { isSession } from '@learnlingo/contract/plain';
import { refreshFinished, signedIn, type AuthUser } from '../auth-slice';

/** better-auth's session endpoint (absolute, so that it also works under jsdom). */
const sessionUrl = () => `${globalThis.location.origin}/api/auth/get-session`;

/**
 * The signed-in user, or undefined when there is no session or it cannot be known.
 * One plain request, not RTK Query: this runs at start, and RTK Query is not part of
 * the first page load. The answer is checked with the contract's zod-free guard.
 */
async function fetchSessionUser(): Promise<AuthUser | undefined> {
  try {
    const response = await fetch(sessionUrl(), { credentials: 'include', headers: { accept: 'application/json' } });
    if (!response.ok) return undefined;
    const body: unknown = await response.json();
    if (!isSession(body) || body === null) return undefined;
    return { name: body.user.name, email: body.user.email };
  } catch {
    return undefined;
  }
}

/** One request per store at a time, however often it is asked (StrictMode runs effects twice). */
const inFlight = new WeakMap<object, Promise<void>>();

/**
 * At start: ask the server for the current session (auth.isRefresh is true until
 * then) and restore the user. A failed request counts as signed out.
 */
export const restoreSession =
  () =>
  (dispatch: Dispatch, getState: () => unknown): Promise<void> => {
    let request = inFlight.get(getState);
    if (!request) {
      request = fetchSessionUser()
        .then((user) => void dispatch(user ? signedIn(user) : refreshFinished()))
        .finally(() => inFlight.delete(getState));
      inFlight.set(getState, request);
    }
    return request;
  };
