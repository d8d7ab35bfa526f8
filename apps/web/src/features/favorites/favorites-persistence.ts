import type { AppStore } from '../../app/store';
import { startAppListening } from '../../app/listener';
import { loggedOut, refreshFinished } from '../auth/auth-slice';
import { favoritesLoaded } from '../teachers/teachers-slice';
import { clearStoredFavorites, readStoredFavorites, writeStoredFavorites } from './lib/favorites-storage';

/**
 * The browser copy of the favourites (local storage, key `teachers`): written whenever
 * the list changes, cleared on logout and when the session turns out to be gone.
 */
let listening = false;

export function startFavoritesPersistence(): void {
  if (listening) return;
  listening = true;
  startAppListening({
    predicate: (_action, current, previous) => current.teachers.favorites !== previous.teachers.favorites,
    effect: (_action, listenerApi) => writeStoredFavorites(listenerApi.getState().teachers.favorites),
  });
  startAppListening({ actionCreator: loggedOut, effect: () => clearStoredFavorites() });
  startAppListening({
    actionCreator: refreshFinished,
    effect: (_action, listenerApi) => {
      // No session after all: the browser copy belonged to someone who has left.
      if (!listenerApi.getState().auth.isLoggedIn) listenerApi.dispatch(favoritesLoaded([]));
    },
  });
}

const hydrated = new WeakSet<AppStore>();

/**
 * Puts the browser copy into the store once per store, so that a reload shows the
 * hearts at once while the server copy loads. A visitor known to be signed out gets
 * nothing (and the stale copy is removed).
 */
export function hydrateFavorites(store: AppStore): void {
  if (hydrated.has(store)) return;
  hydrated.add(store);
  const { auth, teachers } = store.getState();
  if (!auth.isLoggedIn && !auth.isRefresh) {
    clearStoredFavorites();
    return;
  }
  if (teachers.favorites.length > 0) return;
  const stored = readStoredFavorites();
  if (stored.length > 0) store.dispatch(favoritesLoaded(stored));
}

startFavoritesPersistence();
