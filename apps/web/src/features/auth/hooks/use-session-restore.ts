import { useEffect } from 'react';
import { useAppDispatch } from '../../../app/hooks';
import { restoreSession } from '../api/restore-session';

/** Restores the session once when the app shell mounts (duplicate calls share one request). */
export function useSessionRestore(): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    void dispatch(restoreSession());
  }, [dispatch]);
}
