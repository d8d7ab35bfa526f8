import type { Dispatch } from '@reduxjs/toolkit';
import { isSession } from '@learnlingo/contract/plain';
import { refreshFinished, signedIn, type AuthUser } from '../auth-slice';

/** better-auth's session endpoint (absolute, so that it also works under jsdom). */
const sessionUrl = () => `${globalThis.location.origin}/api/auth/get-session`;

/**
 * What one look at the session found: the user, `null` when signed out, or — when the
 * answer cannot be trusted (network, 429, 5xx) — `{ unknown }` with its headers if any.
 */
export type SessionCheck = AuthUser | null | { unknown: Headers | undefined };

/**
 * One plain request, not RTK Query: this runs at start, and RTK Query is not part of
 * the first page load. The answer is checked with the contract's zod-free guard.
 */
export async function checkSession(): Promise<SessionCheck> {
  try {
    const response = await fetch(sessionUrl(), { credentials: 'include', headers: { accept: 'application/json' } });
    const body: unknown = response.ok ? await response.json() : undefined;
    if (!isSession(body)) return { unknown: response.headers };
    return body && { name: body.user.name, email: body.user.email };
  } catch {
    return { unknown: undefined };
  }
}

export type GetState = () => unknown;

/** One request per store at a time, however often it is asked (StrictMode runs effects twice). */
const inFlight = new WeakMap<object, Promise<SessionCheck>>();
export function checkOnce(getState: GetState): Promise<SessionCheck> {
  let request = inFlight.get(getState);
  if (!request) {
    request = checkSession().finally(() => inFlight.delete(getState));
    inFlight.set(getState, request);
  }
  return request;
}

/**
 * At start: ask the server for the current session (auth.isRefresh is true until
 * then) and restore the user. When no answer can be trusted (offline, 429, server
 * error) nothing changes — still restoring, the browser's favourites kept — and
 * lib/session-watch.ts keeps asking: a failed request never turns a signed-in user
 * into a visitor.
 */
export const restoreSession = () => async (dispatch: Dispatch, getState: GetState) => {
  const result = await checkOnce(getState);
  if (result === null) dispatch(refreshFinished());
  else if (!('unknown' in result)) dispatch(signedIn(result));
};
