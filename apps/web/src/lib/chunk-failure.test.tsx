import { Component, Suspense, type ReactNode } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from 'react-hot-toast';
import { apiUrl, server } from '../test/msw-server';
import { chunkFailed, OFFLINE_MESSAGE, RELOAD_GUARD_MS, RELOAD_KEY, shouldReload } from './chunk-failure';
import { lazyChunk } from './lazy-chunk';

const noop = () => {};
const missing = new TypeError('Failed to fetch dynamically imported module: /assets/teachers-page-abc123.js');

/** Whether a promise is still pending after the handling had time to run. */
async function settles(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 30));
  return settled;
}

/** history.back, stubbed: the step back arrives as the browser's popstate does. */
const stubBack = () =>
  vi.spyOn(window.history, 'back').mockImplementation(() => {
    setTimeout(() => window.dispatchEvent(new PopStateEvent('popstate')), 5);
  });

function online(answers: boolean) {
  server.use(http.get(apiUrl('/health'), () => (answers ? HttpResponse.json({ status: 'ok' }) : HttpResponse.error())));
}

beforeEach(() => sessionStorage.clear());
afterEach(() => window.history.replaceState(null, '', '/'));

describe('shouldReload: once per path, then not again for a while', () => {
  it('reloads, then not within RELOAD_GUARD_MS for that path, then again after it', () => {
    const t = 1_000_000;
    expect(shouldReload('/teachers', t)).toBe(true);
    expect(sessionStorage.getItem(`${RELOAD_KEY}/teachers`)).toBe(String(t));
    expect(shouldReload('/teachers', t + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(shouldReload('/', t + 1)).toBe(true);
    expect(shouldReload('/teachers', t + RELOAD_GUARD_MS)).toBe(true);
  });

  it('does not reload when sessionStorage cannot keep the guard', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(shouldReload('/teachers')).toBe(false);
  });
});

describe('chunkFailed', () => {
  it('online, the file gone (a redeploy): reloads the page once and keeps waiting; right after, the error stands', async () => {
    online(true);
    window.history.replaceState({ idx: 1 }, '', '/teachers');
    const reload = vi.fn();
    const renew = vi.fn();
    expect(await settles(chunkFailed(missing, renew, true, reload))).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    // the failed lazy component stays failed: React shows the error rather than trying again
    expect(renew).not.toHaveBeenCalled();
    // the reloaded page's chunk is still missing: no second reload, the error page says it
    await expect(chunkFailed(missing, noop, true, reload)).rejects.toBe(missing);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('offline: a toast, back to the page the user was on, no reload, and it keeps waiting', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    render(<Toaster />);
    window.history.replaceState({ idx: 2 }, '', '/teachers');
    const back = stubBack();
    const reload = vi.fn();
    const renew = vi.fn();
    expect(await settles(chunkFailed(missing, renew, true, reload))).toBe(false);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(OFFLINE_MESSAGE)).toBeInTheDocument();
    expect(screen.getByText(OFFLINE_MESSAGE).closest('[aria-live]')).not.toBeNull();
    expect(back).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStorage.length).toBe(0);
  });

  it('the server unreachable though the browser says online: the same as offline', async () => {
    online(false);
    const back = stubBack();
    const reload = vi.fn();
    window.history.replaceState({ idx: 1 }, '', '/favorites');
    expect(await settles(chunkFailed(missing, noop, true, reload))).toBe(false);
    expect(back).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('offline: does not go back from the first page of the visit, nor for what is not a page', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const back = stubBack();
    window.history.replaceState({ idx: 0 }, '', '/teachers');
    expect(await settles(chunkFailed(missing, noop, true, vi.fn()))).toBe(false);
    window.history.replaceState({ idx: 3 }, '', '/teachers');
    expect(await settles(chunkFailed(missing, noop, false, vi.fn()))).toBe(false);
    expect(back).not.toHaveBeenCalled();
    // the same with an earlier entry and a page: it does go back (the check above can fail) …
    const first = chunkFailed(missing, noop, true, vi.fn());
    // … once, even when a second failure comes before the step back has arrived
    const second = chunkFailed(missing, noop, true, vi.fn());
    expect(await settles(Promise.race([first, second]))).toBe(false);
    expect(back).toHaveBeenCalledTimes(1);
  });
});

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <p>error page</p> : this.props.children;
  }
}

describe('lazyChunk', () => {
  it('never reaches the error boundary offline, and the next render tries the code again', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const load = vi
      .fn<() => Promise<{ default: () => ReactNode }>>()
      .mockRejectedValueOnce(missing)
      .mockResolvedValue({ default: () => <p>the page</p> });
    const Page = lazyChunk(load);
    const ui = (key: number) => (
      <Boundary>
        <Suspense key={key} fallback={<p>loading</p>}>
          <Page />
        </Suspense>
      </Boundary>
    );
    const { rerender } = render(ui(1));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(screen.getByText('loading')).toBeInTheDocument();
    expect(screen.queryByText('error page')).toBeNull();
    // back online, the user asks again: a fresh try, and the page shows
    rerender(ui(2));
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a file missing again right after its reload: the error boundary shows it, no endless retrying', async () => {
    online(true);
    window.history.replaceState({ idx: 1 }, '', '/teachers');
    sessionStorage.setItem(`${RELOAD_KEY}/teachers`, String(Date.now()));
    const load = vi.fn<() => Promise<{ default: () => ReactNode }>>().mockRejectedValue(missing);
    const Page = lazyChunk(load, true);
    // React reports the error the boundary caught (expected here, and checked below)
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <Boundary>
        <Suspense fallback={<p>loading</p>}>
          <Page />
        </Suspense>
      </Boundary>,
    );
    expect(await screen.findByText('error page')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(load).toHaveBeenCalledTimes(1);
    expect(reported.mock.calls.flat()).toContain(missing);
  });

  it('passes its props through to the loaded component', async () => {
    const Greeting = lazyChunk(async () => ({ default: ({ name }: { name: string }) => <p>Hello {name}</p> }));
    render(
      <Suspense fallback={null}>
        <Greeting name="Maria" />
      </Suspense>,
    );
    expect(await screen.findByText('Hello Maria')).toBeInTheDocument();
  });
});
