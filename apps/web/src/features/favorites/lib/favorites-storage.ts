import type { Teacher } from '@learnlingo/contract';
import { isTeacherList } from '@learnlingo/contract/guards';

/** The original's local-storage key for the persisted favourites. */
export const FAVORITES_STORAGE_KEY = 'teachers';

/** An array of teachers, or redux-persist's shape ({ favorites: [...] }) in case an older copy is around. */
function storedTeachers(value: unknown): Teacher[] {
  if (isTeacherList(value)) return value;
  if (typeof value === 'object' && value !== null && 'favorites' in value && isTeacherList(value.favorites)) {
    return value.favorites;
  }
  return [];
}

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
    return storedTeachers(JSON.parse(raw));
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
