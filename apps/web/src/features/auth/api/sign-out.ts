import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { accountMessages, toastMessages } from '@learnlingo/contract/plain';
import { errorStatus } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { loggedOut } from '../auth-slice';
import { announceSession } from '../lib/session-watch';
import { authApi } from './auth-api';

/**
 * Logout, loaded on demand (with RTK Query) when the user first asks for it: ends the
 * session on the server, then clears the user and the whole teachers state (and every
 * cached response, see auth-api.ts), tells the other tabs and toasts. When the server
 * does not confirm it (offline, server error) the session still exists: the user stays
 * signed in, the failure goes to the console (as in the original) and a toast says what
 * to do. Resolves to whether the user is now signed out.
 */
export async function signOut(dispatch: ThunkDispatch<unknown, unknown, UnknownAction>): Promise<boolean> {
  const result = await dispatch(authApi.endpoints.signOut.initiate());
  // 401: there was no session left to end — signed out all the same
  if (result.error && errorStatus(result.error) !== 401) {
    console.error('Logout failed; the session still exists.', result.error);
    void showToast('error', accountMessages.logoutFailed);
    return false;
  }
  dispatch(loggedOut());
  announceSession('signed-out');
  void showToast('success', toastMessages.logoutSuccess);
  return true;
}
