import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Mirrors the URL query (the URL is the source of truth); set by merging partial values. */
export interface FiltersState {
  language: string;
  level: string;
  price: string;
}

export const initialFiltersState: FiltersState = { language: '', level: '', price: '' };

export const filtersSlice = createSlice({
  name: 'filters',
  initialState: initialFiltersState,
  reducers: {
    setFilters(state, action: PayloadAction<Partial<FiltersState>>) {
      return { ...state, ...action.payload };
    },
    resetFilters() {
      return initialFiltersState;
    },
  },
  selectors: {
    selectFilters: (state) => state,
  },
});

export const { setFilters, resetFilters } = filtersSlice.actions;
export const { selectFilters } = filtersSlice.selectors;
