import { isRejectedWithValue, type Dispatch } from '@reduxjs/toolkit';
import { startAppListening } from '../../../store';
import { checkSession, type SessionCheck } from '../api/restore-session';
import { loggedOut, refreshFinished, selectIsLoggedIn, signedIn, type AuthState } from '../auth-slice';
import { announceSession, listenToSession } from './session-channel';

/** The tabs' channel, for what changes the session (forms, logout): through here, so it comes in this module's chunk. */
export { announceSession } from './session-channel';

/**
 * One session truth across the tabs, after start (loaded right after the shell, see
 * hooks/use-session-sync.ts): a logout in another tab signs this one out at once, any
 * other change there makes this one ask the server; so do coming back into view or
 * online, and a timer while visible. Any 401 from the API signs the tab out.
 */

/** How often a visible tab asks the server whether its session still holds. */
export const SESSION_RECHECK_MS = 30_000;
/** Focus and visibility changes come in bursts: at most one look per this long. */
const FOCUS_RECHECK_MIN_MS = 2_000;
/** While the session cannot be known at start: wait 1, 2, 4, 8 s, then every 15 s (or the server's Retry-After). */
const restoreRetryMs = (attempt: number) => Math.min(1000 * 2 ** attempt, 15_000);

type GetState = () => unknown;
const authOf = (getState: GetState) => (getState() as { auth: AuthState }).auth;

/** One request per store at a time, however often it is asked. */
const inFlight = new WeakMap<object, Promise<SessionCheck>>();
function checkOnce(getState: GetState): Promise<SessionCheck> {
  let request = inFlight.get(getState);
  if (!request) {
    request = checkSession().finally(() => inFlight.delete(getState));
    inFlight.set(getState, request);
  }
  return request;
}

/**
 * Later looks (another tab signed in or out, the tab came back into view, the periodic
 * check): the server's answer replaces the state; no answer changes nothing.
 * Resolves to true when the user was signed out by it.
 */
export const recheckSession =
  () =>
  async (dispatch: Dispatch, getState: GetState): Promise<boolean> => {
    if (authOf(getState).isRefresh) return false; // the start-up check is still going (restore)
    const result = await checkOnce(getState);
    const auth = authOf(getState);
    if (auth.isRefresh) return false;
    if (result === null && auth.isLoggedIn) {
      dispatch(loggedOut());
      return true;
    }
    if (result && !('unknown' in result)) {
      const { name, email, role } = result;
      if (auth.isLoggedIn && auth.user.email !== email) dispatch(loggedOut()); // someone else now
      if (!auth.isLoggedIn || auth.user.name !== name || auth.user.email !== email || auth.user.role !== role) dispatch(signedIn(result));
    }
    return false;
  };

/**
 * At start: the shell's first look at the session (auth.isRefresh is true until then)
 * restores the user. When no answer can be trusted (offline, 429, server error) nothing
 * changes — still restoring, the browser's favourites kept — and the check is repeated:
 * a failed request never turns a signed-in user into a visitor. `wake` cuts a wait short.
 */
async function restore(
  first: Promise<SessionCheck>,
  dispatch: Dispatch,
  getState: GetState,
  waits: { wake?: () => void; stopped: boolean },
) {
  let result = await first;
  for (let attempt = 0; !waits.stopped; attempt += 1) {
    if (result === null) dispatch(refreshFinished());
    else if (!('unknown' in result)) dispatch(signedIn(result));
    if (!result || !('unknown' in result) || !authOf(getState).isRefresh) return;
    // a 429's wait, in seconds (this chunk loads at start: no HTTP-date parsing here, lib/api-error.ts has it)
    const retryAfter = Number(result.unknown?.get('retry-after') ?? result.unknown?.get('x-retry-after') ?? NaN);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, retryAfter >= 0 ? retryAfter * 1000 : restoreRetryMs(attempt));
      waits.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    if (!waits.stopped) result = await checkOnce(getState);
  }
}

/** Restores the session from the shell's first look, then keeps watching (a thunk); returns what stops it. */
export const watchSession = (first: Promise<SessionCheck>) => (dispatch: Dispatch, getState: GetState): (() => void) => {
  const waits: { wake?: () => void; stopped: boolean } = { stopped: false };
  void restore(first, dispatch, getState, waits);

  let lastLook = Date.now();
  const look = (force = false) => {
    waits.wake?.();
    const now = Date.now();
    if (!force && now - lastLook < FOCUS_RECHECK_MIN_MS) return;
    lastLook = now;
    void recheckSession()(dispatch, getState);
  };
  const visible = () => globalThis.document?.visibilityState !== 'hidden';
  const onVisibility = () => {
    if (visible()) look();
  };
  const onFocus = () => look();
  const onOnline = () => look(true);
  const stopListening = listenToSession((event) => {
    if (event === 'signed-out') dispatch(loggedOut());
    else look(true);
  });
  const timer = setInterval(() => {
    if (visible()) look(true);
  }, SESSION_RECHECK_MS);

  document.addEventListener('visibilitychange', onVisibility);
  globalThis.addEventListener('focus', onFocus);
  globalThis.addEventListener('online', onOnline);
  return () => {
    waits.stopped = true;
    waits.wake?.();
    stopListening();
    clearInterval(timer);
    document.removeEventListener('visibilitychange', onVisibility);
    globalThis.removeEventListener('focus', onFocus);
    globalThis.removeEventListener('online', onOnline);
  };
};

/** Endpoints whose 401 means wrong credentials, not a session that ended. */
const CREDENTIAL_ENDPOINTS = new Set(['signIn', 'signUp']);

/**
 * Any other 401 from the API means the session is gone (expired, ended on another
 * device, account deleted): the tab signs out — header, favourites — and tells the others.
 */
startAppListening({
  predicate: (action, state) => {
    if (!selectIsLoggedIn(state) || !isRejectedWithValue(action) || !action.type.startsWith('api/')) return false;
    const payload: unknown = action.payload;
    const meta: unknown = action.meta;
    const endpoint =
      typeof meta === 'object' && meta !== null && 'arg' in meta && typeof meta.arg === 'object' && meta.arg !== null && 'endpointName' in meta.arg
        ? meta.arg.endpointName
        : undefined;
    return (
      typeof payload === 'object' && payload !== null && 'status' in payload && payload.status === 401 &&
      !CREDENTIAL_ENDPOINTS.has(String(endpoint))
    );
  },
  effect: (_action, listenerApi) => {
    listenerApi.dispatch(loggedOut());
    announceSession('signed-out');
  },
});
