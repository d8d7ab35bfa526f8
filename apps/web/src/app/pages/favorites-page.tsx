import { Navigate } from 'react-router';
import { useAppSelector } from '../../store';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { Spinner } from '../../components/ui/spinner';
import { EmptyState } from '../../components/ui/empty-state';
import { selectIsLoggedIn, selectIsRefresh } from '../../features/auth';
import { BookTrialButton } from '../../features/booking';
import { FavoriteButton, prefetchFavorites, selectVisibleFavorites, useFavoritesSync } from '../../features/favorites';
import { ButtonLink } from '../../components/ui/button-link';
import { CatalogueSection, TeacherCard, teachersListStyles as styles } from '../../features/teachers';

/** The server fetches the user's favourites; a visitor is redirected to `/`. */
export const prefetch: PageModule['prefetch'] = async ({ dispatch, signedIn }) => {
  if (!signedIn) return 'visitor';
  await prefetchFavorites(dispatch);
  return undefined;
};

/** /favorites: the signed-in user's favourite teachers; visitors go to /. */
export function Component() {
  useFavoritesSync();
  useHead({ title: 'Favorites · LearnLingo', noindex: true });
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const isRefresh = useAppSelector(selectIsRefresh);
  const favorites = useAppSelector(selectVisibleFavorites);

  if (!isLoggedIn && !isRefresh) return <Navigate to="/" replace />;

  return (
    <CatalogueSection title="Favorites">
      {favorites.length > 0 ? (
        <ul className={styles.list}>
          {favorites.map((teacher) => (
            <li key={teacher.id}>
              <TeacherCard
                teacher={teacher}
                heart={<FavoriteButton teacher={teacher} />}
                booking={<BookTrialButton teacher={teacher} />}
              />
            </li>
          ))}
        </ul>
      ) : isRefresh ? (
        <Spinner label="Loading your favorites" />
      ) : (
        <EmptyState title="No favorite teachers yet" action={<ButtonLink to="/teachers">Find a teacher</ButtonLink>}>
          Tap the heart on a teacher’s card and they will be waiting for you here.
        </EmptyState>
      )}
    </CatalogueSection>
  );
}
