/**
 * The shared store module: the store, its typed hooks, the listener middleware and the
 * global UI state. Features and the app import it from here, never from `app/`.
 * The slices `store.ts` combines import `./listener` directly (not this index), so that
 * loading one of them first does not reach the store before the slice exists.
 */
export { makeStore, rootReducer, injectLazySlice, type AppDispatch, type AppStore, type LazyLoadedSlices, type RootState } from './store';
export { useAppDispatch, useAppSelector } from './hooks';
export { listenerMiddleware, startAppListening } from './listener';
export { uiSlice, openModal, closeModal, selectOpenModal, type GlobalModal } from './ui-slice';
