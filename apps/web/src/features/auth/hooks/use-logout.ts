import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../store/hooks';

/** The logout code (and RTK Query with it) loads on first use, or earlier on a hint. */
export const loadSignOut = () => import('../api/sign-out');

/**
 * Logout: ends the session on the server, clears the user and the whole teachers state
 * and every cached response, toasts (see api/sign-out.ts), then goes home. A logout the
 * server did not confirm leaves the user signed in where they are.
 */
export function useLogout() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [isLoggingOut, setLoggingOut] = useState(false);

  const logout = useCallback(async () => {
    setLoggingOut(true);
    let signedOut = false;
    try {
      const { signOut } = await loadSignOut();
      signedOut = await signOut(dispatch);
    } finally {
      setLoggingOut(false);
    }
    if (signedOut) await navigate('/');
  }, [dispatch, navigate]);

  return { logout, isLoggingOut };
}
