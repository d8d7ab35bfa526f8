import { z } from 'zod';
import { teacherSchema, type Teacher } from '@learnlingo/contract';

/** The original's local-storage key for the persisted favourites. */
export const FAVORITES_STORAGE_KEY = 'teachers';

const storedFavoritesSchema = z.union([
  z.array(teacherSchema),
  // redux-persist's shape ({ favorites: [...] }), in case an older copy is around
  z.object({ favorites: z.array(teacherSchema) }).transform((value) => value.favorites),
]);

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled (privacy settings)
  }
}

/** The browser copy of the favourites; anything unreadable counts as none. */
export function readStoredFavorites(): Teacher[] {
  const raw = storage()?.getItem(FAVORITES_STORAGE_KEY);
  if (!raw) return [];
  try {
    const parsed = storedFavoritesSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function writeStoredFavorites(favorites: readonly Teacher[]): void {
  const store = storage();
  if (!store) return;
  try {
    if (favorites.length === 0) store.removeItem(FAVORITES_STORAGE_KEY);
    else store.setItem(FAVORITES_STORAGE_KEY, JSON.stringify(favorites));
  } catch {
    // quota exceeded: the server copy still holds them
  }
}

export function clearStoredFavorites(): void {
  writeStoredFavorites([]);
}
