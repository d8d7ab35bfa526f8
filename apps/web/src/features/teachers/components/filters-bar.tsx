import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { CatalogueQuery, Facets, Sort } from '@learnlingo/contract';
import { defaultSort, SORTS } from '@learnlingo/contract/plain';
import { Button } from '../../../components/ui/button';
import { Select, type SelectOption } from '../../../components/ui/select';
import type { UpdateOptions } from '../hooks/use-url-filters';
import { useGetTeachersInfiniteQuery } from '../api/teachers-api';
import { teacherCount } from '../lib/format';
import styles from './filters-bar.module.css';

const ALL = '';
/** How long typing rests before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

export const SORT_LABELS: Record<Sort, string> = {
  rating: 'Rating',
  'price-asc': 'Price: low to high',
  'price-desc': 'Price: high to low',
  lessons: 'Most lessons',
  relevance: 'Relevance',
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
  prices: [],
  counts: { languages: {}, levels: {} },
  total: 0,
};

/** Keys that step a closed native select to another option. */
const STEP_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * Which control's changes are replacing the last history entry: typing in the search box
 * or stepping through a select with the keyboard adds ONE entry (the first change), and
 * the following changes of the same control replace it, until the user leaves the control.
 */
function useHistorySession() {
  const active = useRef<string | null>(null);
  return {
    /** the options for a change of this control, continuing its session */
    next(control: string): UpdateOptions {
      const replace = active.current === control;
      active.current = control;
      return { replace };
    },
    end(control?: string) {
      if (control === undefined || active.current === control) active.current = null;
    },
  };
}

interface FiltersBarProps {
  filters: CatalogueQuery;
  facets: Facets | undefined;
  onChange: (patch: Partial<CatalogueQuery>, options?: UpdateOptions) => void;
  onClearAll: () => void;
}

/**
 * Above the catalogue: the search box, the order, the filters (Languages, Level of
 * knowledge, the price range), the number of teachers found and "Clear all". Below 768 px
 * the order and the filters fold into a "Filters (n)" panel. Every value lives in the URL.
 */
export function FiltersBar({ filters, facets = EMPTY_FACETS, onChange, onClearAll }: FiltersBarProps) {
  const history = useHistorySession();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const keyboard = useRef(false);

  const active = [filters.language, filters.level, filters.price_min, filters.price_max].filter(
    (value) => value !== undefined,
  ).length;
  const sort = filters.sort ?? defaultSort(filters);
  const anything = active > 0 || filters.q !== undefined || filters.sort !== undefined;

  /** A select's change: from the keyboard it continues the select's history session, from a pick it is its own entry. */
  const selectProps = (name: keyof CatalogueQuery, parse: (value: string) => unknown = (v) => v) => ({
    onKeyDown: (event: KeyboardEvent<HTMLSelectElement>) => {
      keyboard.current = STEP_KEYS.has(event.key) || event.key.length === 1;
    },
    onBlur: () => history.end(name),
    onChange: (event: { target: { value: string } }) => {
      const value = event.target.value;
      const options = keyboard.current ? history.next(name) : (history.end(), {});
      keyboard.current = false;
      onChange({ [name]: value === ALL ? undefined : parse(value) }, options);
    },
  });

  const sortOptions = SORTS.filter((s) => s !== 'relevance' || filters.q).map((value) => ({
    value,
    label: SORT_LABELS[value],
  }));

  return (
    <div className={styles.bar}>
      <SearchBox
        value={filters.q ?? ''}
        onSearch={(q, options) => onChange({ q: q || undefined }, options)}
        history={history}
      />
      <div className={styles.summary}>
        <ResultCount filters={filters} />
        <div className={styles.summaryActions}>
          <Button
            variant="secondary"
            className={styles.panelToggle}
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((was) => !was)}
          >
            {`Filters (${active})`}
          </Button>
          {anything ? (
            <Button variant="ghost" className={styles.clearAll} onClick={onClearAll}>
              Clear all
            </Button>
          ) : null}
        </div>
      </div>
      <form
        id={panelId}
        className={[styles.filters, open ? styles.open : ''].filter(Boolean).join(' ')}
        aria-label="Filters"
        onSubmit={(event) => event.preventDefault()}
      >
        <Select
          label="Languages"
          className={styles.field}
          value={filters.language ?? ALL}
          options={options(facets.languages, filters.language, withCount(facets.counts.languages))}
          {...selectProps('language')}
        />
        <Select
          label="Level of knowledge"
          className={styles.field}
          value={filters.level ?? ALL}
          options={options(facets.levels, filters.level, withCount(facets.counts.levels))}
          {...selectProps('level')}
        />
        <Select
          label="Price from"
          className={styles.field}
          value={filters.price_min === undefined ? ALL : String(filters.price_min)}
          options={options(
            facets.prices.filter((p) => filters.price_max === undefined || p <= filters.price_max),
            filters.price_min,
            (v) => `From ${v} $`,
            'Any',
          )}
          {...selectProps('price_min', Number)}
        />
        <Select
          label="Price"
          className={styles.field}
          value={filters.price_max === undefined ? ALL : String(filters.price_max)}
          options={options(
            facets.prices.filter((p) => filters.price_min === undefined || p >= filters.price_min),
            filters.price_max,
            (v) => `Up to ${v} $`,
          )}
          {...selectProps('price_max', Number)}
        />
        <Select
          label="Sort by"
          className={styles.field}
          value={sort}
          options={sortOptions}
          {...selectProps('sort')}
        />
      </form>
    </div>
  );
}

interface SearchBoxProps {
  value: string;
  onSearch: (q: string, options: UpdateOptions) => void;
  history: ReturnType<typeof useHistorySession>;
}

/** The search box: runs SEARCH_DEBOUNCE_MS after typing rests, at once on Enter; a clear button. */
function SearchBox({ value, onSearch, history }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();

  // the URL changed by other means (Back, Clear all, a link): show its search
  useEffect(() => {
    setText((current) => (current.trim() === value ? current : value));
  }, [value]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const run = (next: string) => {
    clearTimeout(timer.current);
    if (next.trim() === value) return;
    onSearch(next.trim(), history.next('q'));
  };

  return (
    <div className={styles.search}>
      <form
        role="search"
        aria-label="Teachers"
        onSubmit={(event) => {
          event.preventDefault();
          run(text);
          history.end('q');
        }}
      >
        <label htmlFor={id} className="visually-hidden">
          Search teachers
        </label>
        <div className={styles.searchControl}>
          <svg className={styles.searchIcon} width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <circle cx="9" cy="9" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="m13.5 13.5 4 4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
          <input
            ref={inputRef}
            id={id}
            type="search"
            className={styles.searchInput}
            placeholder="Name, language or topic"
            autoComplete="off"
            maxLength={100}
            enterKeyHint="search"
            value={text}
            onChange={(event) => {
              const next = event.target.value;
              setText(next);
              clearTimeout(timer.current);
              timer.current = setTimeout(() => run(next), SEARCH_DEBOUNCE_MS);
            }}
            onBlur={() => history.end('q')}
          />
          {text ? (
            <button
              type="button"
              className={styles.searchClear}
              aria-label="Clear search"
              onClick={() => {
                setText('');
                run('');
                history.end('q');
                inputRef.current?.focus();
              }}
            >
              <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
                <path d="m3 3 10 10M13 3 3 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
            </button>
          ) : null}
        </div>
      </form>
    </div>
  );
}

/** "12 teachers": how many match the whole query (from the list's first page). */
function ResultCount({ filters }: { filters: CatalogueQuery }) {
  const { currentData } = useGetTeachersInfiniteQuery(filters);
  const total = currentData?.pages[0]?.total;
  return (
    <p className={styles.count} role="status" aria-live="polite">
      {total === undefined ? '\u00a0' : teacherCount(total)}
    </p>
  );
}
