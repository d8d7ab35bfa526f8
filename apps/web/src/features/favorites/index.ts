export { FavoriteButton } from './components/favorite-button';
export { useFavoritesSync, selectVisibleFavorites } from './hooks/use-favorites';
export { prefetchFavorites } from './api/favorites-api';
export { FAVORITES_STORAGE_KEY } from './lib/favorites-storage';
