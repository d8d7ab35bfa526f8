import { useSelector } from 'react-redux';
import { Navigate, Outlet } from 'react-router';
import { Spinner } from '../../../components/ui/spinner';
import { selectIsLoggedIn, selectIsRefresh } from '../auth-slice';

/** Route guard: signed-in users see the child route; visitors go to `/` (after the session is known). */
export function RequireAuth() {
  const isRefresh = useSelector(selectIsRefresh);
  const isLoggedIn = useSelector(selectIsLoggedIn);
  if (isRefresh) return <Spinner label="Restoring your session" />;
  if (!isLoggedIn) return <Navigate to="/" replace />;
  return <Outlet />;
}
