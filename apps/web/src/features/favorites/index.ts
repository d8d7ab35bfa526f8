export { FavoriteButton } from './components/favorite-button';
export { useFavoritesSync, selectVisibleFavorites } from './hooks/use-favorites';
export { FAVORITES_STORAGE_KEY } from './lib/favorites-storage';
