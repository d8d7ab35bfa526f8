import type { ComponentType } from 'react';
import type { AppDispatch } from '../../store';
import styles from './console-layout.module.css';

/*
 * What every tab's page shares (apart from the layout, which imports the tabs): the tab's
 * shape and the panel's pieces.
 */

/** What a tab's server-side prefetch gets: the store's dispatch, the query string, the path after /admin/{tab}. */
export interface TabPrefetchContext {
  dispatch: AppDispatch;
  searchParams: URLSearchParams;
  /** the path after the tab's own segment: '' for /admin/people, '/new' for /admin/teachers/new */
  rest: string;
}

/** One tab of the console: its page, and what the server fetches before rendering it ('not-found': 404). */
export interface ConsoleTabPage {
  Component: ComponentType<{ rest: string }>;
  prefetch?: (context: TabPrefetchContext) => Promise<'not-found' | undefined>;
}

/** The console's panel styles (headings, muted text), for the tabs' pages. */
export { styles as consoleStyles };

/** A tab whose page is still to come: says so, in the panel. */
export function PlaceholderPanel({ title, children }: { title: string; children: string }) {
  return (
    <div className={styles.placeholder}>
      <h2 className={styles.panelTitle}>{title}</h2>
      <p className={styles.muted}>{children}</p>
    </div>
  );
}
