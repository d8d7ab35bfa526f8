import type { CatalogueQuery } from '@learnlingo/contract';
import { filtersToSearch } from '@learnlingo/contract/plain';
import type { FiltersState } from '../filters-slice';

/** "30$", as the original shows an hourly price. */
export function formatPrice(price: number): string {
  return `${price}$`;
}

/** "4.8", "5.0": every rating (a teacher's, a review's) with one decimal, as the original's "Rating: 4.8". */
export function formatRating(rating: number): string {
  return rating.toFixed(1);
}

/** The filters slice holds strings (the original's shape); the URL query is typed. */
export function toFiltersState(query: CatalogueQuery): FiltersState {
  return {
    q: query.q ?? '',
    sort: query.sort ?? '',
    language: query.language ?? '',
    level: query.level ?? '',
    country: query.country ?? '',
    price_min: query.price_min === undefined ? '' : String(query.price_min),
    price: query.price_max === undefined ? '' : String(query.price_max),
    search: filtersToSearch(query).toString(),
  };
}

/** "12 teachers", "1 teacher". */
export function teacherCount(count: number): string {
  return `${count} ${count === 1 ? 'teacher' : 'teachers'}`;
}

/** A teacher's full name. */
export function fullName(teacher: { name: string; surname: string }): string {
  return `${teacher.name} ${teacher.surname}`.trim();
}
