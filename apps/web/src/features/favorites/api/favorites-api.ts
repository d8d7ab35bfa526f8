import type { FavoriteState, Favorites, Teacher } from '@learnlingo/contract';
import type { AppDispatch, RootState } from '../../../store';
import { api } from '../../../lib/api';
import { guardSchema, isFavoriteState, isFavorites } from '@learnlingo/contract/plain';
import { favoriteAdded, favoriteRemoved, favoritesLoaded } from '../favorites-slice';

const favoriteUrl = (teacherId: string) => `/favorites/${encodeURIComponent(teacherId)}`;

export const favoritesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user's favourites; the server copy replaces the browser copy. */
    getFavorites: build.query<Favorites, void>({
      query: () => '/favorites',
      responseSchema: guardSchema(isFavorites, 'list of favorites'),
      providesTags: ['Favorites'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(favoritesLoaded(data.items));
        } catch {
          // Keep the browser copy; the heart reports failures of its own requests.
        }
      },
    }),
    /** Optimistic: the heart fills at once and empties again if the server refuses. */
    addFavorite: build.mutation<FavoriteState, Teacher>({
      query: (teacher) => ({ url: favoriteUrl(teacher.id), method: 'PUT' }),
      responseSchema: guardSchema(isFavoriteState, 'favorite state'),
      async onQueryStarted(teacher, { dispatch, queryFulfilled }) {
        dispatch(favoriteAdded(teacher));
        try {
          await queryFulfilled;
        } catch {
          dispatch(favoriteRemoved(teacher.id));
        }
      },
    }),
    removeFavorite: build.mutation<FavoriteState, Teacher>({
      query: (teacher) => ({ url: favoriteUrl(teacher.id), method: 'DELETE' }),
      responseSchema: guardSchema(isFavoriteState, 'favorite state'),
      async onQueryStarted(teacher, { dispatch, getState, queryFulfilled }) {
        const index = (getState() as RootState).teachers.favorites.findIndex((t) => t.id === teacher.id);
        dispatch(favoriteRemoved(teacher.id));
        try {
          await queryFulfilled;
        } catch {
          // the teacher goes back where it was (the list is newest first, as the server keeps it)
          const favorites = (getState() as RootState).teachers.favorites;
          if (!favorites.some((t) => t.id === teacher.id)) {
            const at = Math.max(0, Math.min(index, favorites.length));
            dispatch(favoritesLoaded([...favorites.slice(0, at), teacher, ...favorites.slice(at)]));
          }
        }
      },
    }),
  }),
});

export const { useGetFavoritesQuery, useAddFavoriteMutation, useRemoveFavoriteMutation } = favoritesApi;

/**
 * Whether the store holds the signed-in user's favourites as the server answered them (then its
 * `teachers` slice is the truth even when empty, not the browser's older copy: entry-server.tsx).
 */
export function favoritesRead(state: RootState): boolean {
  const { api } = state;
  return api !== undefined && favoritesApi.endpoints.getFavorites.select()({ ...state, api }).isSuccess;
}

/** The server fetches the signed-in user's favourites before rendering a page with hearts. */
export const prefetchFavorites = (dispatch: AppDispatch) => dispatch(favoritesApi.endpoints.getFavorites.initiate());
