import type { TeacherFilters } from '@learnlingo/contract';
import type { FiltersState } from '../filters-slice';

/** "30$", as the original shows an hourly price. */
export function formatPrice(price: number): string {
  return `${price}$`;
}

/** The filters slice holds strings (the original's shape); the URL filters are typed. */
export function toFiltersState(filters: TeacherFilters): FiltersState {
  return {
    language: filters.language ?? '',
    level: filters.level ?? '',
    price: filters.price === undefined ? '' : String(filters.price),
  };
}

/** A teacher's full name. */
export function fullName(teacher: { name: string; surname: string }): string {
  return `${teacher.name} ${teacher.surname}`.trim();
}
