import {
  combineSlices,
  configureStore,
  createAction,
  createDynamicMiddleware,
  type Middleware,
  type Reducer,
} from '@reduxjs/toolkit';
import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { authSlice } from '../features/auth/auth-slice';
import { teachersSlice } from '../features/favorites/favorites-slice';
import { filtersSlice } from '../features/teachers/filters-slice';
import { uiSlice } from './ui-slice';
import { configSlice } from './config-slice';
import { listenerMiddleware } from './listener';

/**
 * Slices that join the store when their code first loads, declared by their modules
 * (`declare module '…/store/store'`). RTK Query's `api` (lib/api.ts) is one: it is not
 * part of the first page load.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface LazyLoadedSlices {}

/** One of the LazyLoadedSlices: an RTK slice or RTK Query api (anything with reducerPath and reducer). */
type LazySlice = {
  [Path in keyof LazyLoadedSlices]: { reducerPath: Path; reducer: Reducer<LazyLoadedSlices[Path]> };
}[keyof LazyLoadedSlices];

export const rootReducer = combineSlices(authSlice, teachersSlice, filtersSlice, uiSlice, configSlice).withLazyLoadedSlices<LazyLoadedSlices>();
export type RootState = ReturnType<typeof rootReducer>;

/**
 * Middleware that joins the stores when its code loads (RTK Query's, with its `api`): each
 * store made later starts with it.
 */
const lazyMiddleware = new Set<Middleware>();
/**
 * A slice joined the stores: `state` is what the store was made with for it (the server's
 * RTK Query cache, which the page's HTML shows), which the slice takes as its own.
 */
export const lazySliceInjected = createAction<{ path: string; state?: unknown }>('app/lazySliceInjected');
type LazyInjectedAction = ReturnType<typeof lazySliceInjected>;
/** What a store is told when a slice joins: the action, and its own dynamic middleware to add the slice's to. */
interface JoinableStore {
  dispatch: (action: LazyInjectedAction) => unknown;
  preloaded?: Record<string, unknown>;
  addMiddleware: (...middleware: Middleware[]) => void;
}
/** The stores made so far (weakly held: tests make many), told when a slice joins, with their preloaded state. */
const stores = new Set<WeakRef<JoinableStore>>();

/**
 * The server's stores live for one request: it forgets each once its page is rendered (and
 * any that have gone), else the set would keep a reference per page ever rendered. (Server
 * only: the browser's bundle leaves it out.)
 */
export function forgetStore(store: AppStore): void {
  for (const ref of stores) {
    const kept: object | undefined = ref.deref();
    if (!kept || kept === store) stores.delete(ref);
  }
}

/** How many stores are remembered (live, or gone and not yet swept): what the tests watch for a pile-up. */
export const rememberedStores = (): number => stores.size;

/**
 * Adds a slice that loaded after the store was made, with the middleware it needs, to
 * every store: stores made earlier get its state at once (one action through the new
 * reducer and middleware), so nothing reads the slice's state before it exists.
 */
export function injectLazySlice(slice: LazySlice, ...middleware: Middleware[]): void {
  rootReducer.inject(slice);
  for (const added of middleware) lazyMiddleware.add(added);
  for (const ref of stores) {
    const store = ref.deref();
    if (!store) {
      stores.delete(ref);
      continue;
    }
    store.addMiddleware(...middleware);
    store.dispatch(lazySliceInjected({ path: slice.reducerPath, state: store.preloaded?.[slice.reducerPath] }));
  }
}

/**
 * What thunks and RTK Query's base query receive as `extra`: on the server, the base query
 * that answers a page's requests in-process, with the visitor's cookie (entry-server.tsx,
 * lib/server-query.ts).
 */
export interface StoreExtra {
  serverQuery?: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta>;
}

export function makeStore(preloadedState?: Partial<RootState>, extra: StoreExtra = {}) {
  // Each store its own: RTK's dynamic middleware keeps, for every middleware added to it,
  // what that middleware made for each store it ran in, and never lets go (one shared by
  // all kept every page the server ever rendered: decision 100).
  const dynamicMiddleware = createDynamicMiddleware();
  dynamicMiddleware.addMiddleware(...lazyMiddleware);
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: extra } })
        .prepend(listenerMiddleware.middleware)
        .concat(dynamicMiddleware.middleware),
  });
  // (the state of slices that join later: the store made from the server's state keeps it for them)
  const joinable: JoinableStore = Object.assign(store, {
    preloaded: preloadedState as Record<string, unknown> | undefined,
    addMiddleware: dynamicMiddleware.addMiddleware,
  });
  stores.add(new WeakRef(joinable));
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
