import { createSlice } from '@reduxjs/toolkit';

/**
 * The school's settings the pages show, from the server's configuration (SCHOOL_EMAIL):
 * the server rendering preloads them into the store; until then they are null and what
 * needs them is left out.
 */
export const configSlice = createSlice({
  name: 'config',
  initialState: { contactEmail: null as string | null },
  reducers: {},
  selectors: {
    selectContactEmail: (state) => state.contactEmail,
  },
});

export const { selectContactEmail } = configSlice.selectors;
