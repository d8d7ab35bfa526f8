import type { Facets, TeacherFilters } from '@learnlingo/contract';
import { Select, type SelectOption } from '../../../components/ui/select';
import { useGetFacetsQuery } from '../api/teachers-api';
import styles from './teachers-list.module.css';

const ALL = '';

/** Options from the facets, with "All" first; the current value stays listed while facets load. */
function options(values: readonly (string | number)[], current: string | number | undefined, label: (v: string) => string) {
  const list = values.map(String);
  if (current !== undefined && !list.includes(String(current))) list.unshift(String(current));
  return [{ value: ALL, label: 'All' }, ...list.map((value) => ({ value, label: label(value) }))] satisfies SelectOption[];
}

const EMPTY_FACETS: Facets = { languages: [], levels: [], prices: [] };

interface FiltersBarProps {
  filters: TeacherFilters;
  /** one filter changed; an empty value means "All" */
  onChange: (name: keyof TeacherFilters, value: string) => void;
}

/** Languages, Level of knowledge, Price: the catalogue's filters (their values live in the URL). */
export function FiltersBar({ filters, onChange }: FiltersBarProps) {
  const { data: facets = EMPTY_FACETS } = useGetFacetsQuery();
  return (
    <form className={styles.filters} aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <Select
        label="Languages"
        className={styles.filterLanguage}
        value={filters.language ?? ALL}
        options={options(facets.languages, filters.language, (v) => v)}
        onChange={(event) => onChange('language', event.target.value)}
      />
      <Select
        label="Level of knowledge"
        className={styles.filterLevel}
        value={filters.level ?? ALL}
        options={options(facets.levels, filters.level, (v) => v)}
        onChange={(event) => onChange('level', event.target.value)}
      />
      <Select
        label="Price"
        className={styles.filterPrice}
        value={filters.price === undefined ? ALL : String(filters.price)}
        options={options(facets.prices, filters.price, (v) => `Up to ${v} $`)}
        onChange={(event) => onChange('price', event.target.value)}
      />
    </form>
  );
}
