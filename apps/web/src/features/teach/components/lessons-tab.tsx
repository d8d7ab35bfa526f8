import { Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { TEACH_LESSON_VIEWS, type TeachLessonView } from '@learnlingo/contract';
import { lazyChunk } from '../../../lib/lazy-chunk';
import type { AppDispatch } from '../../../store';
import { teachLessonsApi, teachLessonsFirstPagesApi, useGetTeachLessonsQuery } from '../api/lessons-api';
import { LessonsSection } from './lessons-section';
import styles from './lessons.module.css';

/** The cursor a view starts at (a "More" link followed without JavaScript), from the URL: `?past=…`. */
export function startCursors(params: URLSearchParams): Record<TeachLessonView, string | undefined> {
  const start = (view: TeachLessonView) => {
    const value = params.get(view);
    // the server checks it (400 BAD_CURSOR); only an absurd length is dropped here
    return value && value.length <= 200 ? value : undefined;
  };
  return { requests: start('requests'), upcoming: start('upcoming'), past: start('past') };
}

/**
 * What the server fetches before rendering /teach/lessons: the first page of each view in one
 * request (each then cached as its view's first page, which the sections read), or each view's
 * own page when a "More" link named where one starts.
 */
export async function prefetchTeachLessons(dispatch: AppDispatch, params: URLSearchParams) {
  const starts = startCursors(params);
  if (TEACH_LESSON_VIEWS.every((view) => starts[view] === undefined)) {
    const first = await dispatch(teachLessonsFirstPagesApi.endpoints.loadTeachLessonsFirstPages.initiate());
    if (!first.isError) return;
  }
  await Promise.all(TEACH_LESSON_VIEWS.map((view) => dispatch(teachLessonsApi.endpoints.getTeachLessons.initiate({ view, cursor: starts[view] }))));
}

/** The teacher's private calendar feed (decision 118: mail's features/teach/calendar-feed.tsx), a chunk of its own. */
const TeacherCalendarFeed = lazyChunk(() => import('../calendar-feed'));

/** The zone every time of the tab is in: the teacher's own (their hours' zone, else the school's). */
function ZoneNote({ cursor }: { cursor: string | undefined }) {
  const { data } = useGetTeachLessonsQuery({ view: 'upcoming', cursor });
  if (!data) return null;
  return (
    <p className={styles.zone}>
      Times are in your time zone, <strong>{data.timeZone}</strong>.
    </p>
  );
}

/** /teach/lessons: requests waiting for an answer, upcoming lessons and past ones, each paged by the server. */
export function TeachLessons() {
  const [params] = useSearchParams();
  const starts = startCursors(params);
  return (
    <div className={styles.tab}>
      <ZoneNote cursor={starts.upcoming} />
      {TEACH_LESSON_VIEWS.map((view) => (
        <LessonsSection key={`${view} ${starts[view] ?? ''}`} view={view} start={starts[view]} />
      ))}
      <Suspense fallback={null}>
        <TeacherCalendarFeed />
      </Suspense>
    </div>
  );
}
