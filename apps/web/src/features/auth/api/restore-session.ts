import { createAsyncThunk } from '@reduxjs/toolkit';
import { refreshFinished, signedIn } from '../auth-slice';
import { authApi } from './auth-api';

/**
 * At start: ask the server for the current session (auth.isRefresh is true until
 * then) and restore the user. A failed request counts as signed out.
 */
export const restoreSession = createAsyncThunk('auth/restoreSession', async (_: void, { dispatch }) => {
  const result = await dispatch(authApi.endpoints.getSession.initiate(undefined, { subscribe: false }));
  const user = result.data?.user;
  if (user) dispatch(signedIn({ name: user.name, email: user.email }));
  else dispatch(refreshFinished());
});
