import { Suspense, useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import type { Teacher } from '@learnlingo/contract';
import { IN_PLACE_ATTRIBUTE, TAG_FILTERS } from '@learnlingo/contract/plain';
import { ButtonLink } from '../../../components/ui/button-link';
import { EmptyState } from '../../../components/ui/empty-state';
import { useGetTeachersInfiniteQuery } from '../api/teachers-api';
import { catalogueHref, type ListQuery } from '../lib/catalogue-url';
import { CardSkeletons } from './card-skeletons';
import styles from './teachers-list.module.css';

interface TeachersListProps {
  /** the list's query: the catalogue query, from the cursor of the page's URL */
  query: ListQuery;
  /** a card; `index` 0 is the page's first (its picture is not lazy) */
  renderCard: (teacher: Teacher, index: number) => ReactNode;
}

/**
 * A link's plain click, which the page handles in place ("Load more", "Try again"); a click
 * with a modifier or another button keeps the browser's meaning (a new tab, a download…).
 * IN_PLACE_ATTRIBUTE tells the page's loader to hold such a click made before the app is live,
 * for the app to answer once it runs (apps/server/src/plugins/app-loader.ts).
 */
function inPlace(action: () => void) {
  return {
    [IN_PLACE_ATTRIBUTE]: '',
    onClick: (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      action();
    },
  };
}

/**
 * The catalogue: server pages of 4, "Load more" until there is no next cursor. The actions
 * are links, so that the list pages without JavaScript: "Load more" opens the page of the
 * next teachers (`?…&cursor=`), which JavaScript turns into appending them in place.
 */
export function TeachersList({ query, renderCard }: TeachersListProps) {
  const { currentData, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    useGetTeachersInfiniteQuery(query);
  const listRef = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);
  const teachers = currentData?.pages.flatMap((page) => page.items);
  const count = teachers?.length ?? 0;

  // After "Load more", focus moves to the first new teacher (the button may be gone).
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || count <= from) return;
    focusFrom.current = null;
    listRef.current?.children[from]?.querySelector<HTMLElement>('a[href]')?.focus({ preventScroll: true });
  }, [count]);

  if (!teachers) {
    if (isError) {
      return (
        <EmptyState
          title="Could not load the teachers"
          action={
            <ButtonLink to={catalogueHref(query, query.cursor)} {...inPlace(() => void refetch())}>
              Try again
            </ButtonLink>
          }
        >
          Check your connection and try again.
        </EmptyState>
      );
    }
    return <CardSkeletons count={4} />;
  }

  if (teachers.length === 0) {
    // a search alone that found nothing: say what was searched (no filter to reset)
    const filtered = TAG_FILTERS.some((filter) => query[filter] !== undefined) || query.price_min !== undefined || query.price_max !== undefined;
    if (query.q && !filtered) {
      return (
        <EmptyState title={`No teachers found for “${query.q}”`} action={<ButtonLink to="/teachers">Clear search</ButtonLink>}>
          Check the spelling, or search for a language, a level or a teacher’s name.
        </EmptyState>
      );
    }
    return (
      <EmptyState title="No teachers match these filters" action={<ButtonLink to="/teachers">Reset filters</ButtonLink>}>
        Try another language, level or price.
      </EmptyState>
    );
  }

  const loadMore = () => {
    if (isFetchingNextPage) return;
    focusFrom.current = count;
    void fetchNextPage();
  };
  const nextCursor = currentData?.pages.at(-1)?.nextCursor;

  return (
    <>
      <p role="status" className="visually-hidden">
        {hasNextPage ? `${count} teachers shown` : `${count} teachers shown, all loaded`}
      </p>
      <ul ref={listRef} className={styles.list}>
        {teachers.map((teacher, index) => (
          <li key={teacher.id}>
            {/* hydrated after the page is live, or at once when a person acts on it (decision 137) */}
            <Suspense>{renderCard(teacher, index)}</Suspense>
          </li>
        ))}
      </ul>
      {isFetchNextPageError ? (
        <p className={styles.pageError} role="alert">
          Could not load more teachers. Check your connection and try again.
        </p>
      ) : null}
      {hasNextPage && nextCursor ? (
        <div className={styles.more}>
          <ButtonLink
            to={catalogueHref(query, nextCursor)}
            {...inPlace(loadMore)}
            aria-disabled={isFetchingNextPage || undefined}
            aria-busy={isFetchingNextPage || undefined}
          >
            {isFetchNextPageError ? 'Try again' : isFetchingNextPage ? 'Loading…' : 'Load more'}
          </ButtonLink>
        </div>
      ) : null}
    </>
  );
}
