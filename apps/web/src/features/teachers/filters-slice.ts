import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Mirrors the URL query (the URL is the source of truth); set by merging partial values.
 * `price` is the most per hour (the URL's price_max, the original's price), `search` the
 * catalogue's whole query string (for "← All teachers").
 */
export interface FiltersState {
  q: string;
  sort: string;
  language: string;
  level: string;
  country: string;
  price_min: string;
  price: string;
  search: string;
}

export const initialFiltersState: FiltersState = {
  q: '',
  sort: '',
  language: '',
  level: '',
  country: '',
  price_min: '',
  price: '',
  search: '',
};

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
