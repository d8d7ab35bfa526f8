import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import type { FormEcho } from '@learnlingo/contract/plain';
import { injectLazySlice, lazySliceInjected } from '../../store';

/**
 * A /login or /register post the server refused (no JavaScript, or before hydration): what
 * was typed and the messages, rendered on the server and handed to the browser with the
 * store, so the page hydrates showing the same errors. Joins the store with the pages' code.
 */
export const formEchoSlice = createSlice({
  name: 'formEcho',
  initialState: { echo: null as FormEcho | null },
  reducers: {
    formEchoed(state, action: PayloadAction<FormEcho>) {
      state.echo = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(lazySliceInjected, (state, action) => {
      const kept = action.payload.state as { echo?: FormEcho | null } | undefined;
      if (action.payload.path === 'formEcho' && kept?.echo) state.echo = kept.echo;
    });
  },
});

declare module '../../store/store' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the slice
  export interface LazyLoadedSlices extends WithSlice<typeof formEchoSlice> {}
}

injectLazySlice(formEchoSlice);

export const { formEchoed } = formEchoSlice.actions;
