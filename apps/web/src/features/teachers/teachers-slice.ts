import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Teacher } from '@learnlingo/contract';
import { loggedOut } from '../auth/auth-slice';

/**
 * The original's teachers state. Server data (pages of the catalogue) lives in the
 * RTK Query cache; `favorites` is the browser copy of the user's favourites,
 * persisted in local storage under the key `teachers`.
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
  initialState: initialTeachersState,
  reducers: {
    favoritesLoaded(state, action: PayloadAction<Teacher[]>) {
      state.favorites = action.payload;
    },
    favoriteAdded(state, action: PayloadAction<Teacher>) {
      if (!state.favorites.some((t) => t.id === action.payload.id)) state.favorites.push(action.payload);
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
