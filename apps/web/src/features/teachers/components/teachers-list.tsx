import { useEffect, useRef, type ReactNode } from 'react';
import type { CatalogueQuery, Teacher } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { useGetTeachersInfiniteQuery } from '../api/teachers-api';
import { CardSkeletons } from './card-skeletons';
import styles from './teachers-list.module.css';

interface TeachersListProps {
  filters: CatalogueQuery;
  renderCard: (teacher: Teacher) => ReactNode;
  onResetFilters: () => void;
}

/** The catalogue: server pages of 4, "Load more" until there is no next cursor. */
export function TeachersList({ filters, renderCard, onResetFilters }: TeachersListProps) {
  const { currentData, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    useGetTeachersInfiniteQuery(filters);
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
          action={<Button onClick={() => void refetch()}>Try again</Button>}
        >
          Check your connection and try again.
        </EmptyState>
      );
    }
    return <CardSkeletons count={4} />;
  }

  if (teachers.length === 0) {
    return (
      <EmptyState title="No teachers match these filters" action={<Button onClick={onResetFilters}>Reset filters</Button>}>
        Try another language, level or price.
      </EmptyState>
    );
  }

  const loadMore = () => {
    focusFrom.current = count;
    void fetchNextPage();
  };

  return (
    <>
      <p role="status" className="visually-hidden">
        {hasNextPage ? `${count} teachers shown` : `${count} teachers shown, all loaded`}
      </p>
      <ul ref={listRef} className={styles.list}>
        {teachers.map((teacher) => (
          <li key={teacher.id}>{renderCard(teacher)}</li>
        ))}
      </ul>
      {isFetchNextPageError ? (
        <p className={styles.pageError} role="alert">
          Could not load more teachers. Check your connection and try again.
        </p>
      ) : null}
      {hasNextPage ? (
        <div className={styles.more}>
          <Button onClick={loadMore} disabled={isFetchingNextPage} aria-busy={isFetchingNextPage || undefined}>
            {isFetchNextPageError ? 'Try again' : isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </>
  );
}
