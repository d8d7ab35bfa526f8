import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { api } from '../lib/api';
import { authSlice } from '../features/auth/auth-slice';
import { teachersSlice } from '../features/teachers/teachers-slice';
import { filtersSlice } from '../features/teachers/filters-slice';
import { uiSlice } from './ui-slice';
import { listenerMiddleware } from './listener';

const rootReducer = combineSlices(api, authSlice, teachersSlice, filtersSlice, uiSlice);
export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().prepend(listenerMiddleware.middleware).concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
