import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { toastMessages } from '@learnlingo/contract/plain';
import { api } from '../../../lib/api';
import { isNetworkError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { loggedOut } from '../auth-slice';
import { authApi } from './auth-api';

/**
 * Logout, loaded on demand (with RTK Query) when the user first asks for it: ends the
 * session on the server, then clears the user and the whole teachers state, drops
 * every cached response and toasts. Local state is cleared even when the server
 * cannot be reached (that case is logged).
 */
export async function signOut(dispatch: ThunkDispatch<unknown, unknown, UnknownAction>): Promise<void> {
  const result = await dispatch(authApi.endpoints.signOut.initiate());
  if (result.error && isNetworkError(result.error)) {
    console.error('Logout: the server could not be reached; signed out in this browser only.', result.error);
  }
  dispatch(loggedOut());
  dispatch(api.util.resetApiState());
  void showToast('success', toastMessages.logoutSuccess);
}
