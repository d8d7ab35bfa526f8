import type { Teacher } from '@learnlingo/contract';
import { useFavoriteToggle } from '../hooks/use-favorites';
import styles from './favorite-button.module.css';

/** The heart on a teacher card; its colour and aria-pressed show whether it is a favourite. */
export function FavoriteButton({ teacher }: { teacher: Teacher }) {
  const { isFavorite, toggle } = useFavoriteToggle(teacher);
  return (
    <button
      type="button"
      className={isFavorite ? `${styles.heart} ${styles.active}` : styles.heart}
      aria-label={isFavorite ? 'Remove from favorites' : 'Add to favorites'}
      aria-pressed={isFavorite}
      onClick={() => void toggle()}
    >
      <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          d="M19 14c1.49-1.46 3-3.21 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.76 0-3 .5-4.5 2-1.5-1.5-2.74-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4.05 3 5.5l7 7Z"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
