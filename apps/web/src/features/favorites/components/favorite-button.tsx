import type { Teacher } from '@learnlingo/contract';
import { useLocation } from 'react-router';
import { useFavoriteToggle } from '../hooks/use-favorites';
import styles from './favorite-button.module.css';

/**
 * The heart on a teacher card; its colour and aria-pressed show whether it is a favourite.
 * It is a form that posts the state it asks for (decision 105): before the app hydrates, or
 * without JavaScript, the server adds or removes the teacher and comes back to this page (a
 * visitor goes to /login first); once hydrated, the app does it in place.
 */
export function FavoriteButton({ teacher }: { teacher: Teacher }) {
  const { isFavorite, toggle } = useFavoriteToggle(teacher);
  const { pathname, search } = useLocation();
  return (
    <form
      method="post"
      action="/favorites"
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        void toggle();
      }}
    >
      <input type="hidden" name="teacherId" value={teacher.id} />
      <input type="hidden" name="favorite" value={String(!isFavorite)} />
      <input type="hidden" name="next" value={pathname + search} />
      <button
        type="submit"
        className={isFavorite ? `${styles.heart} ${styles.active}` : styles.heart}
        aria-label={isFavorite ? 'Remove from favorites' : 'Add to favorites'}
        aria-pressed={isFavorite}
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
    </form>
  );
}
