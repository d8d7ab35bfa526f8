import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CatalogueQuery, Facets, Sort, TagFilter } from '@learnlingo/contract';
import { CATALOGUE_FILTERS, defaultSort, SORTS, TAG_FILTERS } from '@learnlingo/contract/plain';
import { Button } from '../../../components/ui/button';
import { ButtonLink } from '../../../components/ui/button-link';
import { Select, type SelectOption } from '../../../components/ui/select';
import type { UpdateOptions } from '../hooks/use-url-filters';
import { useHistorySession } from '../hooks/use-history-session';
import { useGetTeachersInfiniteQuery } from '../api/teachers-api';
import type { ListQuery } from '../lib/catalogue-url';
import { teacherCount } from '../lib/format';
import { SearchBox, useSearchText } from './search-box';
import styles from './filters-bar.module.css';

/** The value of "All" (and of the default order): left out of the URL. */
const ALL = '';

export const SORT_LABELS: Record<Sort, string> = {
  rating: 'Rating',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  lessons: 'Most lessons',
  relevance: 'Relevance',
};

/** Each tag filter's select (CATALOGUE_FILTERS), in the registry's order. */
export const TAG_LABELS: Record<TagFilter, string> = {
  language: 'Languages',
  level: 'Level of knowledge',
  country: 'Country',
};

/** Options from the facets, with "All" first; the current value stays listed while facets load. */
function options(
  values: readonly (string | number)[],
  current: string | number | undefined,
  label: (v: string) => string,
  all = 'All',
): SelectOption[] {
  const list = values.map(String);
  if (current !== undefined && !list.includes(String(current))) list.unshift(String(current));
  return [{ value: ALL, label: all }, ...list.map((value) => ({ value, label: label(value) }))];
}

/** "French (9)" once the counts are known. */
const withCount = (counts: Record<string, number> | undefined) => (value: string) =>
  counts && value in counts ? `${value} (${counts[value]})` : value;

const EMPTY_FACETS: Facets = {
  languages: [],
  levels: [],
  countries: [],
  prices: [],
  counts: { languages: {}, levels: {}, countries: {} },
  total: 0,
};

/** Keys that step a closed native select to another option. */
const STEP_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

interface FiltersBarProps {
  /** the list's query: the search, order and filters shown, and what the count counts */
  query: ListQuery;
  facets: Facets | undefined;
  onChange: (patch: Partial<CatalogueQuery>, options?: UpdateOptions) => void;
}

/**
 * Above the catalogue: the search box, the order, the filters (Languages, Level of
 * knowledge, Country — CATALOGUE_FILTERS' tags — and the price range), the number of teachers found and "Clear all". Below 768 px
 * the order and the filters fold into a "Filters (n)" panel. Every value lives in the URL.
 *
 * One GET form for /teachers whose field names are the URL's, so that without JavaScript
 * it applies on submit (its "Apply filters" button and the unfolded panel show only then,
 * by CSS: `@media (scripting: none)`); with JavaScript every change applies at once.
 */
export function FiltersBar({ query, facets = EMPTY_FACETS, onChange }: FiltersBarProps) {
  const history = useHistorySession();
  const search = useSearchText(query.q ?? '', (q, options) => onChange({ q: q || undefined }, options), history);
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const keyboard = useRef(false);
  const toggle = useRef<HTMLButtonElement>(null);

  const active = [...TAG_FILTERS.map((filter) => query[filter]), query.price_min, query.price_max].filter(
    (value) => value !== undefined,
  ).length;
  const defaultOrder = defaultSort(query);
  const anything = active > 0 || query.q !== undefined || query.sort !== undefined;

  /** A select's change: from the keyboard it continues the select's history session, from a pick it is its own entry. */
  const selectProps = (name: keyof CatalogueQuery, parse: (value: string) => unknown = (v) => v) => ({
    name,
    onKeyDown: (event: KeyboardEvent<HTMLSelectElement>) => {
      keyboard.current = STEP_KEYS.has(event.key) || event.key.length === 1;
    },
    onBlur: () => history.end(name),
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      const picked = !keyboard.current;
      const options = picked ? (history.end(), {}) : history.next(name);
      keyboard.current = false;
      onChange({ [name]: value === ALL ? undefined : parse(value) }, options);
      // below 768 px the open panel would push the results below the fold: a pick folds it
      // (focus back on its toggle); stepping through a select with the keys leaves it open
      if (picked && open) {
        setOpen(false);
        toggle.current?.focus();
      }
    },
  });

  // the default order's value is ALL, so that a search submitted without JavaScript gets its own default (relevance)
  const sortOptions = SORTS.filter((s) => s !== 'relevance' || query.q).map((value) => ({
    value: value === defaultOrder ? ALL : value,
    label: SORT_LABELS[value],
  }));

  return (
    <form
      method="get"
      action="/teachers"
      role="search"
      aria-label="Teachers"
      className={styles.bar}
      onSubmit={(event) => {
        event.preventDefault();
        search.submit();
      }}
    >
      <SearchBox search={search} />
      <div className={styles.summary}>
        <ResultCount query={query} />
        <div className={styles.summaryActions}>
          <Button
            ref={toggle}
            variant="secondary"
            className={styles.panelToggle}
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((was) => !was)}
          >
            {`Filters (${active})`}
          </Button>
          {anything ? (
            <ButtonLink variant="ghost" className={styles.clearAll} to="/teachers">
              Clear all
            </ButtonLink>
          ) : null}
        </div>
      </div>
      <div
        id={panelId}
        role="group"
        aria-label="Filters"
        className={[styles.filters, open ? styles.open : ''].filter(Boolean).join(' ')}
      >
        {TAG_FILTERS.map((filter) => {
          const { facet } = CATALOGUE_FILTERS[filter];
          return (
            <Select
              key={filter}
              label={TAG_LABELS[filter]}
              className={styles.field}
              value={query[filter] ?? ALL}
              options={options(facets[facet], query[filter], withCount(facets.counts[facet]))}
              {...selectProps(filter)}
            />
          );
        })}
        <Select
          label="Price from (min)"
          className={styles.field}
          value={query.price_min === undefined ? ALL : String(query.price_min)}
          options={options(
            facets.prices.filter((p) => query.price_max === undefined || p <= query.price_max),
            query.price_min,
            (v) => `From ${v} $`,
            'Any',
          )}
          {...selectProps('price_min', Number)}
        />
        <Select
          label="Price up to (max)"
          className={styles.field}
          value={query.price_max === undefined ? ALL : String(query.price_max)}
          options={options(
            facets.prices.filter((p) => query.price_min === undefined || p >= query.price_min),
            query.price_max,
            (v) => `Up to ${v} $`,
          )}
          {...selectProps('price_max', Number)}
        />
        <Select
          label="Sort by"
          className={styles.field}
          value={query.sort === undefined || query.sort === defaultOrder ? ALL : query.sort}
          options={sortOptions}
          {...selectProps('sort')}
        />
        <Button type="submit" className={styles.apply}>
          Apply filters
        </Button>
      </div>
    </form>
  );
}

/** "12 teachers": how many match the whole query (from the list's first page). */
function ResultCount({ query }: { query: ListQuery }) {
  const { currentData } = useGetTeachersInfiniteQuery(query);
  const total = currentData?.pages[0]?.total;
  return (
    <p className={styles.count} role="status" aria-live="polite">
      {total === undefined ? '\u00a0' : teacherCount(total)}
    </p>
  );
}
