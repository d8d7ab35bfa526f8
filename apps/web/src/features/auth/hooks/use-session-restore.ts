import { useEffect } from 'react';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { restoreSession } from '../api/restore-session';

/** Restores the session once when the app shell mounts (duplicate calls share one request). */
export function useSessionRestore(): void {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  useEffect(() => {
    void dispatch(restoreSession());
  }, [dispatch]);
}
