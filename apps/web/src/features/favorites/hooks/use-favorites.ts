import type { Teacher } from '@learnlingo/contract';
import { toastMessages } from '@learnlingo/contract/plain';
import { openModal, startAppListening, useAppDispatch, useAppSelector, type RootState } from '../../../store';
import { favoriteAwaitsSignIn, pendingFavoriteTaken } from '../pending-favorite-slice';
import { errorStatus } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { selectIsLoggedIn, selectIsRefresh, signedIn } from '../../auth';
import {
  favoritesApi,
  useAddFavoriteMutation,
  useGetFavoritesQuery,
  useRemoveFavoriteMutation,
} from '../api/favorites-api';

/** Whose favourites the store holds: a signed-in user's, or (while the session is restored) the last one's. */
function selectFavoritesVisible(state: RootState): boolean {
  return selectIsLoggedIn(state) || selectIsRefresh(state);
}

export function selectVisibleFavorites(state: RootState): Teacher[] {
  return selectFavoritesVisible(state) ? state.teachers.favorites : [];
}

/**
 * On the pages that show hearts: the signed-in user's server copy replaces the browser
 * copy the store started with (and is fetched again when the session changes).
 */
export function useFavoritesSync() {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  return useGetFavoritesQuery(undefined, { skip: !isLoggedIn });
}

/** The heart: signed out, it asks to sign in; signed in, it toggles optimistically. */
export function useFavoriteToggle(teacher: Teacher) {
  const dispatch = useAppDispatch();
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const isFavorite = useAppSelector(
    (state) => selectFavoritesVisible(state) && state.teachers.favorites.some((t) => t.id === teacher.id),
  );
  const [addFavorite] = useAddFavoriteMutation();
  const [removeFavorite] = useRemoveFavoriteMutation();

  const toggle = async () => {
    if (!isLoggedIn) {
      void showToast('error', toastMessages.needAuth);
      dispatch(favoriteAwaitsSignIn(teacher));
      dispatch(openModal('login'));
      return;
    }
    const result = isFavorite ? await removeFavorite(teacher) : await addFavorite(teacher);
    if (!result.error) {
      void showToast('success', isFavorite ? toastMessages.favoriteRemoved : toastMessages.favoriteAdded);
    } else if (errorStatus(result.error) === 401) {
      void showToast('error', toastMessages.needAuth);
      dispatch(favoriteAwaitsSignIn(teacher));
      dispatch(openModal('login'));
    } else {
      void showToast('error', toastMessages.favoriteFailed);
    }
  };

  return { isFavorite, toggle };
}

/**
 * The heart that asked a visitor to sign in adds its teacher once they have (Login or
 * Registration); the server's list is read again afterwards, so the add cannot be lost
 * to the favourites read that signing in starts at the same time.
 */
startAppListening({
  actionCreator: signedIn,
  effect: async (_action, listenerApi) => {
    const teacher = listenerApi.getState().pendingFavorite?.teacher;
    if (!teacher) return;
    listenerApi.dispatch(pendingFavoriteTaken());
    const result = await listenerApi.dispatch(favoritesApi.endpoints.addFavorite.initiate(teacher));
    if (result.error) {
      void showToast('error', toastMessages.favoriteFailed);
      return;
    }
    void showToast('success', toastMessages.favoriteAdded);
    listenerApi.dispatch(favoritesApi.util.invalidateTags(['Favorites']));
  },
});
