import { useEffect } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { restoreSession } from '../api/restore-session';

/** What keeps the tabs' sessions in step: loaded right after the shell (it needs nothing of the first paint). */
export const loadSessionWatch = () => import('../lib/session-watch');

/**
 * The session at start (restored, retried while unknown), then one session truth across
 * the tabs (lib/session-watch.ts).
 */
export function useSessionSync(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    void dispatch(restoreSession());
    const watching = loadSessionWatch().then(({ watchSession }) => dispatch(watchSession()));
    return () => void watching.then((stop) => stop());
  }, [dispatch]);
}
