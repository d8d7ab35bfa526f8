import { useEffect, useId, useRef, useState } from 'react';
import type { HistorySession } from '../hooks/use-history-session';
import type { UpdateOptions } from '../hooks/use-url-filters';
import styles from './filters-bar.module.css';

/** How long typing rests before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box's text: the search runs SEARCH_DEBOUNCE_MS after typing rests, at once on
 * submit (Enter); typing continues the box's history session (see useHistorySession).
 */
export function useSearchText(value: string, onSearch: (q: string, options: UpdateOptions) => void, history: HistorySession) {
  const [text, setText] = useState(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

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

  return {
    text,
    change(next: string) {
      setText(next);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => run(next), SEARCH_DEBOUNCE_MS);
    },
    submit() {
      run(text);
      history.end('q');
    },
    clear() {
      setText('');
      run('');
      history.end('q');
    },
    blur: () => history.end('q'),
  };
}

/** The search box (`q` of the catalogue's form) with its clear button. */
export function SearchBox({ search }: { search: ReturnType<typeof useSearchText> }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <div className={styles.searchControl}>
      <label htmlFor={id} className="visually-hidden">
        Search teachers
      </label>
      <svg className={styles.searchIcon} width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
        <circle cx="9" cy="9" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="m13.5 13.5 4 4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        ref={inputRef}
        id={id}
        name="q"
        type="search"
        className={styles.searchInput}
        placeholder="Name, language or topic"
        autoComplete="off"
        maxLength={100}
        enterKeyHint="search"
        value={search.text}
        onChange={(event) => search.change(event.target.value)}
        onBlur={search.blur}
      />
      {search.text ? (
        <button
          type="button"
          className={styles.searchClear}
          aria-label="Clear search"
          onClick={() => {
            search.clear();
            inputRef.current?.focus();
          }}
        >
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path d="m3 3 10 10M13 3 3 13" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      ) : null}
    </div>
  );
}
