import { createSlice } from '@reduxjs/toolkit';

/**
 * The school's settings the pages show, from the console's School settings (SCHOOL_EMAIL before any):
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
