import { useEffect } from 'react';
import { useAppDispatch } from '../../../store/hooks';
import type { AuthState } from '../auth-slice';
import { checkSession } from '../api/restore-session';

/** What keeps the tabs' sessions in step: loaded right after the shell (it needs nothing of the first paint). */
export const loadSessionWatch = () => import('../lib/session-watch');

/**
 * The session at start — the request leaves at once, its answer is applied (and retried
 * while unknown) by lib/session-watch.ts, fetched meanwhile — then one session truth
 * across the tabs.
 */
export function useSessionSync(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    // a page the server rendered already knows the session (from the cookie): no second look
    const known = dispatch((_, getState) => !(getState() as { auth: AuthState }).auth.isRefresh);
    const first = known ? Promise.resolve(null) : checkSession();
    const watching = loadSessionWatch().then(({ watchSession }) => dispatch(watchSession(first)));
    return () => void watching.then((stop) => stop());
  }, [dispatch]);
}
