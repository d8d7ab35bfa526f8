import { useEffect } from 'react';
import { isRejectedWithValue } from '@reduxjs/toolkit';
import { startAppListening } from '../../../app/listener';
import { useAppDispatch } from '../../../app/hooks';
import { recheckSession, restoreSession, retryRestoreNow } from '../api/restore-session';
import { loggedOut, selectIsLoggedIn } from '../auth-slice';
import { announceSession, listenToSession } from '../lib/session-channel';

/** How often a visible tab asks the server whether its session still holds. */
export const SESSION_RECHECK_MS = 30_000;
/** Focus and visibility changes come in bursts: at most one look per this long. */
const FOCUS_RECHECK_MIN_MS = 2_000;

/**
 * One session truth across the tabs: the session is restored at start; a logout in
 * another tab signs this one out at once, any other change there makes this one ask
 * the server; so do coming back into view or online, and a timer while visible.
 */
export function useSessionSync(): void {
  const dispatch = useAppDispatch();

  useEffect(() => {
    void dispatch(restoreSession());
  }, [dispatch]);

  useEffect(() => {
    let lastLook = Date.now();
    const look = (force = false) => {
      const now = Date.now();
      if (!force && now - lastLook < FOCUS_RECHECK_MIN_MS) return;
      lastLook = now;
      void dispatch(recheckSession());
    };
    const visible = () => globalThis.document?.visibilityState !== 'hidden';
    const onVisibility = () => {
      if (visible()) look();
    };
    const onFocus = () => look();
    const onOnline = () => {
      dispatch(retryRestoreNow());
      look(true);
    };
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
      stopListening();
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      globalThis.removeEventListener('focus', onFocus);
      globalThis.removeEventListener('online', onOnline);
    };
  }, [dispatch]);
}

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
