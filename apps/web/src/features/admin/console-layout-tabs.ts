import { activityTab } from './activity-tab';
import { bookingsTab } from './bookings-tab';
import { peopleTab } from './people-tab';
import { reviewsTab } from './reviews-tab';
import { settingsTab } from './settings-tab';
import { teachersTab } from './teachers-tab';
import type { ConsoleTabPage } from './console-layout-parts';

export interface ConsoleTab {
  /** /admin/{segment} */
  segment: string;
  label: string;
  page: ConsoleTabPage;
}

/** The console's tabs, in the nav's order; /admin alone is the first (Teachers). Each tab's page is a file of its own. */
export const CONSOLE_TABS: readonly ConsoleTab[] = [
  { segment: 'teachers', label: 'Teachers', page: teachersTab },
  { segment: 'bookings', label: 'Bookings', page: bookingsTab },
  { segment: 'people', label: 'People', page: peopleTab },
  { segment: 'activity', label: 'Activity', page: activityTab },
  { segment: 'settings', label: 'Settings', page: settingsTab },
  { segment: 'reviews', label: 'Reviews', page: reviewsTab },
];

/** The tab a path under /admin shows and the path after its segment, or null (no such tab: 404). */
export function consoleTabOf(pathname: string): { tab: ConsoleTab; rest: string } | null {
  const match = /^\/admin(?:\/([a-z]+))?(\/.*)?$/.exec(pathname.length <= 300 ? pathname.replace(/\/+$/, '') : '');
  if (!match) return null;
  const [, segment, rest = ''] = match;
  if (segment === undefined) return rest === '' ? { tab: CONSOLE_TABS[0]!, rest: '' } : null;
  const tab = CONSOLE_TABS.find((candidate) => candidate.segment === segment);
  return tab ? { tab, rest } : null;
}

/** The link to a tab: the first is /admin itself. */
export const tabPath = (tab: ConsoleTab) => (tab === CONSOLE_TABS[0] ? '/admin' : `/admin/${tab.segment}`);
