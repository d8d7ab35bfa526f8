import type { Teacher } from '@learnlingo/contract';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { BookTrialButton } from '../../features/booking';
import { FavoriteButton, prefetchFavorites, useFavoritesSync } from '../../features/favorites';
import {
  CatalogueSection,
  FiltersBar,
  TeacherCard,
  TeachersList,
  catalogueHref,
  prefetchCatalogue,
  readCatalogueUrl,
  useUrlFilters,
} from '../../features/teachers';

/**
 * The server fetches what the page reads (the hooks' own arguments) and the user's
 * favourites. A URL in another spelling (a form submitted without JavaScript sends its empty
 * fields; values in another case, invalid ones) is sent to the query's own spelling first.
 */
export const prefetch: PageModule['prefetch'] = async ({ dispatch, searchParams, signedIn }) => {
  const query = readCatalogueUrl(searchParams);
  const canonical = catalogueHref(query, query.cursor);
  if (canonical !== (searchParams.size > 0 ? `/teachers?${searchParams.toString()}` : '/teachers')) return { canonical };
  await Promise.all([prefetchCatalogue(dispatch, searchParams), signedIn ? prefetchFavorites(dispatch) : undefined]);
  return undefined;
};

/** /teachers: search, order and filters (in the URL), the teacher cards and "Load more". */
export function Component() {
  useFavoritesSync();
  useHead({
    title: 'Teachers · LearnLingo',
    description:
      'Online language teachers: search by name or language, filter by level and price per hour, read reviews and book a trial lesson.',
  });
  const { filters, list, facets, update } = useUrlFilters();
  const renderCard = (teacher: Teacher, index: number) => (
    <TeacherCard
      teacher={teacher}
      priority={index === 0}
      activeLevel={filters.level}
      heart={<FavoriteButton teacher={teacher} />}
      booking={<BookTrialButton teacher={teacher} />}
    />
  );
  return (
    <CatalogueSection title="Teachers">
      <FiltersBar query={list} facets={facets} onChange={update} />
      <TeachersList query={list} renderCard={renderCard} />
    </CatalogueSection>
  );
}
