import { useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router';
import type { TeachLessonView } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { useGetTeachLessonsQuery } from '../api/lessons-api';
import { LessonItem } from './lessons-item';
import styles from './lessons.module.css';

export const VIEW_TEXTS: Record<TeachLessonView, { title: string; empty: string; list: string }> = {
  requests: { title: 'Requests', empty: 'No request is waiting for your answer.', list: 'Requests waiting for your answer' },
  upcoming: { title: 'Upcoming', empty: 'No upcoming lessons yet.', list: 'Upcoming lessons' },
  past: { title: 'Past', empty: 'No past lessons yet.', list: 'Past lessons' },
};

/** The URL of the view's next page without JavaScript: this page with `?{view}={cursor}` (the others' positions kept). */
function moreHref(pathname: string, search: string, view: TeachLessonView, cursor: string) {
  const params = new URLSearchParams(search);
  params.set(view, cursor);
  return `${pathname}?${params.toString()}#${view}`;
}

interface PageProps {
  view: TeachLessonView;
  cursor: string | undefined;
  /** the last page shown: it offers "More" */
  last: boolean;
  onMore: (cursor: string) => void;
}

/** One page of a view: its lessons as list items, and "More" on the last page when the server has more. */
function LessonsPage({ view, cursor, last, onMore }: PageProps) {
  // a tab opened again shows the lessons as they are now (the page's own data is fresh for 10 s,
  // so hydration does not fetch twice); the first page of requests looks for new ones each minute
  const { data, isLoading, isError, refetch } = useGetTeachLessonsQuery(
    { view, cursor },
    { refetchOnMountOrArgChange: 10, ...(view === 'requests' && cursor === undefined ? { pollingInterval: 60_000, skipPollingIfUnfocused: true } : {}) },
  );
  const { pathname, search } = useLocation();
  if (isLoading) {
    return (
      <li className={styles.status}>
        <Spinner label={`Loading ${VIEW_TEXTS[view].list.toLowerCase()}`} />
      </li>
    );
  }
  if (isError || !data) {
    return (
      <li className={styles.status}>
        <p role="alert" className={styles.error}>
          These lessons could not be loaded.
        </p>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </li>
    );
  }
  if (cursor === undefined && data.items.length === 0) {
    return <li className={styles.empty}>{VIEW_TEXTS[view].empty}</li>;
  }
  const next = data.nextCursor;
  const more = (event: MouseEvent<HTMLAnchorElement>) => {
    // the app adds the page under the ones shown; without it, the link opens the next page
    event.preventDefault();
    if (next) onMore(next);
  };
  return (
    <>
      {data.items.map((lesson) => (
        <li key={lesson.id}>
          <LessonItem lesson={lesson} timeZone={data.timeZone} />
        </li>
      ))}
      {last && next ? (
        <li className={styles.more}>
          <a className={styles.moreLink} href={moreHref(pathname, search, view, next)} onClick={more}>
            More {VIEW_TEXTS[view].title.toLowerCase()}
          </a>
        </li>
      ) : null}
    </>
  );
}

/** A view of the teacher's lessons, paged by the server: "More" adds the next page under the ones shown. */
export function LessonsSection({ view, start }: { view: TeachLessonView; start: string | undefined }) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([start]);
  const texts = VIEW_TEXTS[view];
  return (
    <section className={styles.section} aria-labelledby={`${view}-heading`} id={view}>
      <h2 id={`${view}-heading`} className={styles.sectionTitle}>
        {texts.title}
      </h2>
      <ul className={styles.list} aria-label={texts.list}>
        {cursors.map((cursor, index) => (
          <LessonsPage
            key={cursor ?? ''}
            view={view}
            cursor={cursor}
            last={index === cursors.length - 1}
            onMore={(next) => setCursors((shown) => (shown.includes(next) ? shown : [...shown, next]))}
          />
        ))}
      </ul>
    </section>
  );
}
