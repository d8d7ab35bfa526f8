import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Teacher } from '@learnlingo/contract';
import { startAppListening } from '../../store/listener';
import { loggedOut, refreshFinished } from '../auth';
import { readStoredFavorites, writeStoredFavorites } from './lib/favorites-storage';

/**
 * The original's teachers state, under the store key `teachers` the spec names. It lives
 * with the favourites because they are all of it the app uses: server data (pages of the
 * catalogue) lives in the RTK Query cache; `favorites` is the browser copy of the user's
 * favourites, persisted in local storage under the key `teachers`.
 */
export interface TeachersState {
  items: Teacher[];
  favorites: Teacher[];
  isLoading: boolean;
  isFavorite: boolean;
  isError: boolean;
}

export const initialTeachersState: TeachersState = {
  items: [],
  favorites: [],
  isLoading: false,
  isFavorite: false,
  isError: false,
};

export const teachersSlice = createSlice({
  name: 'teachers',
  // The store starts with the browser copy of the favourites, so a reload shows them at once.
  initialState: (): TeachersState => ({ ...initialTeachersState, favorites: readStoredFavorites() }),
  reducers: {
    favoritesLoaded(state, action: PayloadAction<Teacher[]>) {
      state.favorites = action.payload;
    },
    /** newest first, the order the server lists them in (so a reload keeps it) */
    favoriteAdded(state, action: PayloadAction<Teacher>) {
      if (!state.favorites.some((t) => t.id === action.payload.id)) state.favorites.unshift(action.payload);
    },
    favoriteRemoved(state, action: PayloadAction<string>) {
      state.favorites = state.favorites.filter((t) => t.id !== action.payload);
    },
  },
  extraReducers: (builder) => {
    // Logout resets the whole teachers state, favourites included.
    builder.addCase(loggedOut, () => initialTeachersState);
  },
  selectors: {
    selectFavorites: (state) => state.favorites,
  },
});

export const { favoritesLoaded, favoriteAdded, favoriteRemoved } = teachersSlice.actions;
export const { selectFavorites } = teachersSlice.selectors;

/**
 * Only the favourites are persisted (local storage, key `teachers`): written whenever
 * they change, removed when they are emptied — so logout, which resets this state,
 * clears the browser copy too.
 */
startAppListening({
  predicate: (_action, current, previous) => current.teachers.favorites !== previous.teachers.favorites,
  effect: (_action, listenerApi) => writeStoredFavorites(listenerApi.getState().teachers.favorites),
});

/**
 * No session after all at start: the browser copy belonged to someone who has left. A
 * session: the browser copy becomes the page's (a heart the server answered before the app
 * ran changed the server's list, which the page came with, but not this copy).
 */
startAppListening({
  actionCreator: refreshFinished,
  effect: (_action, listenerApi) => {
    const { auth, teachers } = listenerApi.getState();
    if (!auth.isLoggedIn) {
      if (teachers.favorites.length > 0) listenerApi.dispatch(favoritesLoaded([]));
    } else writeStoredFavorites(teachers.favorites);
  },
});
