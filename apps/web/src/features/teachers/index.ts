export { TeacherCard } from './components/teacher-card';
/** A list of reviews as the card shows them (the teacher page's paged reviews use it too). */
export { TeacherReviews } from './components/teacher-reviews';
export { TeacherAvatar } from './components/teacher-avatar';
export { TeachersList } from './components/teachers-list';
export { FiltersBar } from './components/filters-bar';
export { useUrlFilters } from './hooks/use-url-filters';
export { prefetchCatalogue } from './api/prefetch-catalogue';
export { catalogueHref, readCatalogueUrl } from './lib/catalogue-url';
export { teachersApi, useGetTeacherQuery } from './api/teachers-api';
export { CatalogueSection, BackLink } from './components/catalogue-section';
export { selectFilters } from './filters-slice';
/** The cards' grid, for pages that list teachers in their own way (favourites). */
export { default as teachersListStyles } from './components/teachers-list.module.css';
