import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import type { Teacher } from '@learnlingo/contract';
import { closeModal, injectLazySlice } from '../../store';

/**
 * The teacher whose heart asked a visitor to sign in: added once they have (see
 * hooks/use-favorites.ts). Closing the modal without signing in forgets it. Joins the
 * store with the hearts' code, not in the first page load.
 */
export const pendingFavoriteSlice = createSlice({
  name: 'pendingFavorite',
  initialState: { teacher: null as Teacher | null },
  reducers: {
    favoriteAwaitsSignIn(state, action: PayloadAction<Teacher>) {
      state.teacher = action.payload;
    },
    pendingFavoriteTaken(state) {
      state.teacher = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(closeModal, (state) => {
      state.teacher = null;
    });
  },
});

declare module '../../store/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the slice
  export interface LazyLoadedSlices extends WithSlice<typeof pendingFavoriteSlice> {}
}

injectLazySlice(pendingFavoriteSlice);

export const { favoriteAwaitsSignIn, pendingFavoriteTaken } = pendingFavoriteSlice.actions;
