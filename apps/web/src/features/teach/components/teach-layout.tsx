import type { ComponentType } from 'react';
import { NavLink } from 'react-router';
import type { AppDispatch } from '../../../store';
import { reviewsApi } from '../../reviews';
import { HoursTab } from '../hours-tab';
import { teachHoursApi } from '../hours-api';
import { ProfileTab } from '../profile-tab';
import { teachProfileApi } from '../profile-api';
import { prefetchTeachLessons, TeachLessons } from './lessons-tab';
import { TeachReviews } from './teach-reviews';
import styles from './teach.module.css';

/** One tab of /teach: /teach/{segment}, its page, and what the server fetches before rendering it. */
export interface TeachTab {
  segment: string;
  label: string;
  Component: ComponentType;
  /** `searchParams`: the page's query (the Lessons tab's pages start where a "More" link says) */
  prefetch?: (dispatch: AppDispatch, searchParams: URLSearchParams) => Promise<unknown>;
}

/** The tabs of /teach in the nav's order; /teach alone shows the first. */
export const TEACH_TABS: readonly TeachTab[] = [
  // the teacher's daily screen first: /teach lands on it
  { segment: 'lessons', label: 'Lessons', Component: TeachLessons, prefetch: prefetchTeachLessons },
  { segment: 'hours', label: 'Hours', Component: HoursTab, prefetch: (dispatch) => dispatch(teachHoursApi.endpoints.getTeachAvailability.initiate()) },
  { segment: 'profile', label: 'Profile', Component: ProfileTab },
  { segment: 'reviews', label: 'Reviews', Component: TeachReviews, prefetch: (dispatch) => dispatch(reviewsApi.endpoints.getTeachReviews.initiate()) },
];

/** The tab a segment names, or undefined (no such tab: 404). */
export const teachTabOf = (segment: string) => TEACH_TABS.find((tab) => tab.segment === segment);

/**
 * Whether the signed-in user is a teacher with a profile: the profile's answer (every tab
 * needs it; 401/403 for anyone else). Fetched by the server for every tab.
 */
export const prefetchTeacher = (dispatch: AppDispatch) => dispatch(teachProfileApi.endpoints.getTeachProfile.initiate());

/** /teach's frame: the heading, the tab nav (links: each tab is a page of its own, server-rendered) and the tab's page. */
export function TeachLayout({ tab }: { tab: TeachTab }) {
  const Page = tab.Component;
  return (
    <div className={styles.page}>
      <h1 className={styles.heading}>Teach</h1>
      <nav aria-label="Teaching" className={styles.tabs}>
        {TEACH_TABS.map((each) => (
          <NavLink key={each.segment} to={`/teach/${each.segment}`} className={styles.tab} end>
            {each.label}
          </NavLink>
        ))}
      </nav>
      <Page />
    </div>
  );
}
