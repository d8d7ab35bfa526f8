/**
 * The shared store module: the store, its typed hooks, the listener middleware and the
 * global UI state. Features and the app import it from here, never from `app/`.
 * The slices `store.ts` combines, and what they import (such as the auth feature's
 * index.ts and its hooks), use `./listener` and `./hooks` directly, not this index: through
 * it they would import `store.ts` back, and a slice loaded first would meet a store without
 * it. The lint's `import-x/no-cycle` finds such a cycle.
 */
export { makeStore, forgetStore, rememberedStores, rootReducer, injectLazySlice, lazySliceInjected, type StoreExtra, type AppDispatch, type AppStore, type LazyLoadedSlices, type RootState } from './store';
export { useAppDispatch, useAppSelector } from './hooks';
export { listenerMiddleware, startAppListening } from './listener';
export { configSlice, selectContactEmail } from './config-slice';
export { uiSlice, openModal, closeModal, selectOpenModal, type GlobalModal } from './ui-slice';
