import type { Teacher } from '@learnlingo/contract';
import { BookTrialButton } from '../../features/booking';
import { FavoriteButton, useFavoritesSync } from '../../features/favorites';
import { CatalogueSection, FiltersBar, TeacherCard, TeachersList, useUrlFilters } from '../../features/teachers';

/** /teachers: search, order and filters (in the URL), the teacher cards and "Load more". */
export function Component() {
  useFavoritesSync();
  const { filters, list, facets, update } = useUrlFilters();
  const renderCard = (teacher: Teacher) => (
    <TeacherCard
      teacher={teacher}
      activeLevel={filters.level}
      heart={<FavoriteButton teacher={teacher} />}
      booking={<BookTrialButton teacher={teacher} />}
    />
  );
  return (
    <CatalogueSection title="Teachers">
      <title>Teachers · LearnLingo</title>
      <FiltersBar query={list} facets={facets} onChange={update} />
      <TeachersList query={list} renderCard={renderCard} />
    </CatalogueSection>
  );
}
