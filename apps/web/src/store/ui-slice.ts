import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Which global modal is open. The booking modal is local to the card that opens it. */
export type GlobalModal = 'login' | 'register' | 'forgot-password' | null;

export const uiSlice = createSlice({
  name: 'ui',
  initialState: { modal: null as GlobalModal },
  reducers: {
    /** Login, Registration and Forgot password lead to each other */
    openModal(state, action: PayloadAction<Exclude<GlobalModal, null>>) {
      state.modal = action.payload;
    },
    closeModal(state) {
      state.modal = null;
    },
  },
  selectors: {
    selectOpenModal: (state) => state.modal,
  },
});

export const { openModal, closeModal } = uiSlice.actions;
export const { selectOpenModal } = uiSlice.selectors;
