export { FavoriteButton } from './components/favorite-button';
export { useFavoritesSync, useFavoriteToggle, selectVisibleFavorites } from './hooks/use-favorites';
export { favoritesApi } from './api/favorites-api';
export { FAVORITES_STORAGE_KEY } from './lib/favorites-storage';
