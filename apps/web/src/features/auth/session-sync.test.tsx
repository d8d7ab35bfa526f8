import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import type { Teacher } from '@learnlingo/contract';
import { renderApp } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState } from '../../test/auth-state';
import { FAVORITES_STORAGE_KEY } from '../favorites';
import { catalogueHandlers } from '../teachers/testing/catalogue-handlers';
import { loadTeachers } from '../teachers/testing/teachers-fixture';
import { loadSessionWatch } from './hooks/use-session-sync';

afterEach(() => toast.remove());

const [first] = loadTeachers() as [Teacher];

/** The watch loads right after the shell: wait for it before another tab speaks. */
async function watching() {
  await loadSessionWatch();
  await new Promise((resolve) => setTimeout(resolve, 0));
}

/** Another tab of the app in the same browser: it speaks on the same channel. */
function otherTab() {
  const channel = new BroadcastChannel('learnlingo-session');
  const heard: unknown[] = [];
  channel.onmessage = (message: MessageEvent<unknown>) => heard.push(message.data);
  return {
    heard,
    /** delivered asynchronously: the assertions that follow wait for its effect */
    say: (event: string) => channel.postMessage(event),
    close: () => channel.close(),
  };
}

describe('the session at start is never failed into "signed out"', () => {
  it('offline at start: keeps restoring (the browser favourites too) and retries until the server answers', async () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first]));
    let online = false;
    let calls = 0;
    server.use(
      http.get(apiUrl('/auth/get-session'), () => {
        calls += 1;
        return online ? HttpResponse.json(sessionOf('Ola Nowak')) : HttpResponse.error();
      }),
    );
    const { store } = renderApp('/');
    await waitFor(() => expect(calls).toBeGreaterThanOrEqual(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(store.getState().auth).toMatchObject({ isRefresh: true, isLoggedIn: false });
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    expect(screen.getByText('Restoring your session')).toBeInTheDocument();
    expect(store.getState().teachers.favorites.map((t) => t.id)).toEqual([first.id]);
    online = true;
    expect(await screen.findByText('Welcome Ola Nowak', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('429 at start: waits the Retry-After the server names, then restores the user', async () => {
    const times: number[] = [];
    server.use(
      http.get(apiUrl('/auth/get-session'), () => {
        times.push(Date.now());
        if (times.length <= 2) {
          return HttpResponse.json({ message: 'Too many requests' }, { status: 429, headers: { 'Retry-After': '3' } });
        }
        return HttpResponse.json(sessionOf('Ola Nowak'));
      }),
    );
    const { store } = renderApp('/');
    await waitFor(() => expect(times.length).toBeGreaterThanOrEqual(1));
    expect(store.getState().auth.isRefresh).toBe(true);
    expect(await screen.findByText('Welcome Ola Nowak', {}, { timeout: 8000 })).toBeInTheDocument();
    // the last refused look and the next one are the named 3 s apart (the backoff alone would wait 1–2 s)
    expect(times.at(-1)! - times.at(-2)!).toBeGreaterThanOrEqual(2900);
  }, 15_000);
});

describe('one session truth across tabs', () => {
  it('a logout in another tab signs this one out at once (header, favourites)', async () => {
    server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf())));
    const tab = otherTab();
    try {
      const { store } = renderApp('/', { preloadedState: signedInState() });
      expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
      store.dispatch({ type: 'teachers/favoriteAdded', payload: first });
      await watching();
      tab.say('signed-out');
      expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
      expect(screen.queryByText('Welcome Ann Lee')).not.toBeInTheDocument();
      expect(store.getState().teachers.favorites).toEqual([]);
    } finally {
      tab.close();
    }
  });

  it('another change there (a new name, a sign-in) makes this tab ask the server', async () => {
    let name = 'Ann Lee';
    server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf(name))));
    const tab = otherTab();
    try {
      renderApp('/', { preloadedState: signedInState() });
      expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
      name = 'Ann Smith';
      await watching();
      tab.say('changed');
      expect(await screen.findByText('Welcome Ann Smith')).toBeInTheDocument();
    } finally {
      tab.close();
    }
  });

  it('coming back into view, the tab asks again: a session ended elsewhere signs it out', async () => {
    let session: ReturnType<typeof sessionOf> | null = sessionOf();
    server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(session)));
    renderApp('/', { preloadedState: signedInState() });
    expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
    session = null;
    await new Promise((resolve) => setTimeout(resolve, 2100)); // past the burst guard
    await watching();
    window.dispatchEvent(new Event('focus'));
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });

  it('a check that gets no answer changes nothing', async () => {
    server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.error()));
    const tab = otherTab();
    try {
      const { store } = renderApp('/', { preloadedState: signedInState() });
      expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
      await watching();
      tab.say('changed');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(store.getState().auth.isLoggedIn).toBe(true);
      expect(screen.getByText('Welcome Ann Lee')).toBeInTheDocument();
    } finally {
      tab.close();
    }
  });

  it('a logout here tells the other tabs', async () => {
    server.use(
      http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf())),
      http.post(apiUrl('/auth/sign-out'), () => HttpResponse.json({ success: true })),
    );
    const tab = otherTab();
    try {
      const { user } = renderApp('/', { preloadedState: signedInState() });
      await user.click(await screen.findByRole('button', { name: 'Logout' }));
      expect(await screen.findByText('Logout successfully')).toBeInTheDocument();
      await waitFor(() => expect(tab.heard).toEqual(['signed-out']));
    } finally {
      tab.close();
    }
  });
});

describe('a 401 from the API signs the tab out', () => {
  it('the heart meets an ended session: signed out (header, favourites), Login opens', async () => {
    const { handlers } = catalogueHandlers();
    server.use(
      ...handlers,
      http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf())),
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.put(apiUrl('/favorites/:id'), () =>
        HttpResponse.json({ error: { code: 'UNAUTHORIZED', message: 'Sign in first' } }, { status: 401 }),
      ),
    );
    const { user, store } = renderApp('/teachers', { preloadedState: signedInState() });
    const hearts = await screen.findAllByRole('button', { name: 'Add to favorites' });
    await user.click(hearts[0]!);
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(screen.queryByText('Welcome Ann Lee')).not.toBeInTheDocument();
    expect(store.getState().teachers.favorites).toEqual([]);
  });
});
