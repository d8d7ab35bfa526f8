import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { toastMessages } from '@learnlingo/contract/plain';
import { api } from '../../../lib/api';
import { isNetworkError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { loggedOut } from '../auth-slice';
import { useSignOutMutation } from '../api/auth-api';

/**
 * Logout: ends the session on the server, then clears the user and the whole
 * teachers state, drops every cached response, toasts and goes home. Local state is
 * cleared even when the server cannot be reached (that case is logged).
 */
export function useLogout() {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [signOut, { isLoading }] = useSignOutMutation();

  const logout = useCallback(async () => {
    const result = await signOut();
    if (result.error && isNetworkError(result.error)) {
      console.error('Logout: the server could not be reached; signed out in this browser only.', result.error);
    }
    dispatch(loggedOut());
    dispatch(api.util.resetApiState());
    void showToast('success', toastMessages.logoutSuccess);
    await navigate('/');
  }, [dispatch, navigate, signOut]);

  return { logout, isLoggingOut: isLoading };
}
