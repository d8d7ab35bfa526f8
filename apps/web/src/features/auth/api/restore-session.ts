import type { Dispatch } from '@reduxjs/toolkit';
import { isSession } from '@learnlingo/contract/plain';
import { retryAfterSeconds } from '../../../lib/retry-after';
import { loggedOut, refreshFinished, signedIn, type AuthState, type AuthUser } from '../auth-slice';

/** better-auth's session endpoint (absolute, so that it also works under jsdom). */
const sessionUrl = () => `${globalThis.location.origin}/api/auth/get-session`;

/** What one look at the session found. `unknown`: no answer to trust (network, 429, 5xx). */
export type SessionCheck =
  | { kind: 'user'; user: AuthUser }
  | { kind: 'none' }
  | { kind: 'unknown'; retryAfterMs?: number | undefined };

/**
 * One plain request, not RTK Query: this runs at start, and RTK Query is not part of
 * the first page load. The answer is checked with the contract's zod-free guard.
 */
export async function checkSession(): Promise<SessionCheck> {
  try {
    const response = await fetch(sessionUrl(), {
      credentials: 'include',
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    if (!response.ok) {
      const wait = response.status === 429 ? retryAfterSeconds(response.headers) : undefined;
      return { kind: 'unknown', retryAfterMs: wait === undefined ? undefined : wait * 1000 };
    }
    const body: unknown = await response.json();
    if (!isSession(body)) return { kind: 'unknown' };
    return body === null ? { kind: 'none' } : { kind: 'user', user: { name: body.user.name, email: body.user.email } };
  } catch {
    return { kind: 'unknown' };
  }
}

/** Waits between attempts while the session cannot be known at start (ms); the last repeats. */
export const RESTORE_RETRY_MS = [1000, 2000, 4000, 8000, 15000] as const;

type GetState = () => unknown;
const authOf = (getState: GetState) => (getState() as { auth: AuthState }).auth;

/** One request per store at a time, however often it is asked (StrictMode runs effects twice). */
const inFlight = new WeakMap<object, Promise<SessionCheck>>();
function checkOnce(getState: GetState): Promise<SessionCheck> {
  let request = inFlight.get(getState);
  if (!request) {
    request = checkSession().finally(() => inFlight.delete(getState));
    inFlight.set(getState, request);
  }
  return request;
}

/** A pending retry of the start-up check, per store. */
const retryTimers = new WeakMap<object, ReturnType<typeof setTimeout>>();

/**
 * At start: ask the server for the current session (auth.isRefresh is true until
 * then) and restore the user. When no answer can be trusted (offline, 429, server
 * error) the state stays as it is — still restoring, the browser's favourites kept —
 * and the check is retried (after `Retry-After` when the server names it): a failed
 * request never turns a signed-in user into a visitor.
 */
export const restoreSession =
  (attempt = 0) =>
  async (dispatch: Dispatch, getState: GetState): Promise<void> => {
    const result = await checkOnce(getState);
    if (result.kind === 'user') dispatch(signedIn(result.user));
    else if (result.kind === 'none') dispatch(refreshFinished());
    else if (authOf(getState).isRefresh && !retryTimers.has(getState)) {
      const wait = result.retryAfterMs ?? RESTORE_RETRY_MS[Math.min(attempt, RESTORE_RETRY_MS.length - 1)]!;
      retryTimers.set(
        getState,
        setTimeout(() => {
          retryTimers.delete(getState);
          void restoreSession(attempt + 1)(dispatch, getState);
        }, wait),
      );
    }
  };

/** Retry a waiting start-up check now (the browser came back online, the tab got focus). */
export const retryRestoreNow = () => (dispatch: Dispatch, getState: GetState) => {
  const timer = retryTimers.get(getState);
  if (timer === undefined) return;
  clearTimeout(timer);
  retryTimers.delete(getState);
  void restoreSession(1)(dispatch, getState);
};

/**
 * Later looks (another tab signed in or out, the tab came back into view, the periodic
 * check): the server's answer replaces the state; no answer changes nothing.
 * Resolves to true when the user was signed out by it.
 */
export const recheckSession =
  () =>
  async (dispatch: Dispatch, getState: GetState): Promise<boolean> => {
    if (authOf(getState).isRefresh) {
      retryRestoreNow()(dispatch, getState);
      return false;
    }
    const result = await checkOnce(getState);
    const auth = authOf(getState);
    if (auth.isRefresh) return false;
    if (result.kind === 'none' && auth.isLoggedIn) {
      dispatch(loggedOut());
      return true;
    }
    if (result.kind === 'user') {
      const { name, email } = result.user;
      if (auth.isLoggedIn && auth.user.email !== email) dispatch(loggedOut()); // someone else now
      if (!auth.isLoggedIn || auth.user.name !== name || auth.user.email !== email) dispatch(signedIn(result.user));
    }
    return false;
  };
