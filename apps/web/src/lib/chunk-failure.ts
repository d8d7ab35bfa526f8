import { toast } from 'react-hot-toast';

/** What a user who went offline is told when the code of what they asked for cannot load. */
export const OFFLINE_MESSAGE = 'You are offline, so this could not open. Check your connection and try again.';
/** sessionStorage key prefix of the last reload for a missing chunk, per path. */
export const RELOAD_KEY = 'learnlingo:chunk-reload:';
/** Within this long after such a reload, a chunk missing again on the same path is an error, not another reload. */
export const RELOAD_GUARD_MS = 60_000;

/** Whether the server answers: then a chunk that failed to load is gone (a redeploy), not unreachable. */
async function serverAnswers(): Promise<boolean> {
  if (!navigator.onLine) return false;
  try {
    await fetch('/api/health', { cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether to reload the page at `path` (which fetches the new file names), noting the time:
 * not when it was reloaded for a missing chunk less than RELOAD_GUARD_MS ago — no reload loop
 * when a file is missing for good — nor when sessionStorage cannot tell.
 */
export function shouldReload(path: string, now = Date.now()): boolean {
  const key = RELOAD_KEY + path;
  try {
    if (now - Number(sessionStorage.getItem(key)) < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(key, String(now));
    return true;
  } catch {
    return false;
  }
}

/** A step back is under way (popstate not yet seen): a second failure meanwhile must not go back twice. */
let leaving = false;

/** Whether the router has an earlier entry of this app to go back to (react-router keeps `idx` in history.state). */
function canGoBack(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && 'idx' in state && typeof state.idx === 'number' && state.idx > 0;
}

/**
 * A lazy chunk failed to load (see lib/lazy-chunk). Offline (or the server unreachable): a
 * toast, `back` to the page the user was on (a page's chunk), and `renew` (a fresh lazy
 * component, so that the next render tries again) while this one waits. Online, the file is
 * gone after a redeploy: reload once; right after such a reload the error stands (the route
 * error page, with "Try again").
 */
export async function chunkFailed<T>(
  error: unknown,
  renew: () => void,
  back = false,
  reload = () => window.location.reload(),
): Promise<T> {
  if (await serverAnswers()) {
    if (!shouldReload(window.location.pathname)) throw error;
    reload();
  } else {
    toast.error(OFFLINE_MESSAGE, { id: 'offline' });
    renew();
    if (back && !leaving && canGoBack()) {
      leaving = true;
      window.addEventListener('popstate', () => (leaving = false), { once: true });
      window.history.back();
    }
  }
  return new Promise<T>(() => {});
}
