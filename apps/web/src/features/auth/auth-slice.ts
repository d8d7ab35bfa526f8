import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Role } from '@learnlingo/contract/plain';

export interface AuthUser {
  name: string;
  email: string;
  /** learner, teacher or admin (decision 109); absent: a learner */
  role?: Role;
}

export interface AuthState {
  user: AuthUser;
  isLoggedIn: boolean;
  /** true while the session is being restored at start */
  isRefresh: boolean;
  isLoading: boolean;
  error: string | null;
}

export const initialAuthState: AuthState = {
  user: { name: '', email: '' },
  isLoggedIn: false,
  isRefresh: true,
  isLoading: false,
  error: null,
};

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** sign-in, registration, or a session restored at start */
    signedIn(state, action: PayloadAction<AuthUser>) {
      state.user = action.payload;
      state.isLoggedIn = true;
      state.isRefresh = false;
      state.isLoading = false;
      state.error = null;
    },
    /** logout (or a session that turned out to be gone): clears the user */
    loggedOut() {
      return { ...initialAuthState, isRefresh: false };
    },
    refreshFinished(state) {
      state.isRefresh = false;
    },
  },
  selectors: {
    selectUser: (state) => state.user,
    selectIsLoggedIn: (state) => state.isLoggedIn,
    selectIsRefresh: (state) => state.isRefresh,
  },
});

export const { signedIn, loggedOut, refreshFinished } = authSlice.actions;
export const { selectUser, selectIsLoggedIn, selectIsRefresh } = authSlice.selectors;
