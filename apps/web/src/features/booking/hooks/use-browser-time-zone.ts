import { useSyncExternalStore } from 'react';
import { browserTimeZone } from '../lib/lesson-time';

const unchanging = () => () => {};
/** What the server renders times in: it does not know the browser's zone. */
const SERVER_TIME_ZONE = 'UTC';

/**
 * The browser's zone for showing lesson times. The server's HTML (and hydration) use UTC,
 * labelled as such, so both render the same; the browser's own zone follows right after
 * hydration, with no hydration mismatch (React's error #418) and no layout shift (only the
 * times' digits and the zone's name change).
 */
export function useBrowserTimeZone(): string {
  return useSyncExternalStore(unchanging, browserTimeZone, () => SERVER_TIME_ZONE);
}
