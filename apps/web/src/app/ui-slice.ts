import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Teacher } from '@learnlingo/contract';

/** Which global modal is open. The booking modal is local to the card that opens it. */
export type GlobalModal = 'login' | 'register' | 'forgot-password' | null;

export interface UiState {
  modal: GlobalModal;
  /** the teacher whose heart asked a visitor to sign in: added once they have */
  pendingFavorite: Teacher | null;
}

const initialUiState: UiState = { modal: null, pendingFavorite: null };

export const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    /** opens a modal (Login, Registration and Forgot password lead to each other) */
    openModal(state, action: PayloadAction<Exclude<GlobalModal, null>>) {
      state.modal = action.payload;
    },
    /** closed without signing in: the heart's wish goes with it */
    closeModal(state) {
      state.modal = null;
      state.pendingFavorite = null;
    },
    /** a visitor's heart: the Login modal, and the teacher to add after signing in */
    signInToAddFavorite(state, action: PayloadAction<Teacher>) {
      state.modal = 'login';
      state.pendingFavorite = action.payload;
    },
    pendingFavoriteTaken(state) {
      state.pendingFavorite = null;
    },
  },
  selectors: {
    selectOpenModal: (state) => state.modal,
    selectPendingFavorite: (state) => state.pendingFavorite,
  },
});

export const { openModal, closeModal, signInToAddFavorite, pendingFavoriteTaken } = uiSlice.actions;
export const { selectOpenModal, selectPendingFavorite } = uiSlice.selectors;
