// Runs under the web project's jsdom setup (msw, the console guard); entry-server's fetch is the fake below, never the network.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RenderResult } from '@learnlingo/contract/plain';
import { Suspense, use } from 'react';
import { headTags, render, renderToHtml, scriptJson } from './entry-server';
import { routes, type RouteHandle } from './app/router';
import { makeStore, rememberedStores, type RootState } from './store';
import { loadTeachers } from './features/teachers/testing/teachers-fixture';
import { reviewsPageOf } from './features/teachers/testing/catalogue-handlers';

const [teacher] = loadTeachers();

/** An API that answers the session and one teacher, and whatever `overrides` says. */
function fakeApi(overrides: Record<string, () => Response> = {}) {
  return vi.fn(async (request: Request) => {
    const { pathname } = new URL(request.url);
    const override = overrides[pathname];
    if (override) return override();
    if (pathname === '/api/auth/get-session') return Response.json(null);
    if (pathname === `/api/teachers/${teacher!.id}`) return Response.json(teacher);
    if (pathname === `/api/teachers/${teacher!.id}/reviews`) return Response.json(reviewsPageOf(teacher!));
    return Response.json({ code: 'NOT_FOUND', message: 'Not found' }, { status: 404 });
  });
}

const renderPage = async (url: string, fetch = fakeApi()) => {
  const result = await render({ url, fetch, sessionCookie: true, publicOrigin: 'https://learnlingo.example', contactEmail: null });
  if (result.kind !== 'page') throw new Error(`expected a page, got ${result.kind}`);
  return result as Extract<RenderResult, { kind: 'page' }>;
};

afterEach(() => {
  vi.doUnmock('./app/pages/home-page');
  vi.resetModules();
});

describe('entry-server', () => {
  it("renders a teacher's page from the API's answers, with no request left for the browser", async () => {
    const fetch = fakeApi();
    const result = await renderPage(`/teachers/${teacher!.id}`, fetch);
    expect(result.status).toBe(200);
    expect(result.html.replace(/<!-- -->/g, '')).toContain(`${teacher!.name} ${teacher!.surname}`);
    expect(result.modules).toEqual(['src/app/pages/teacher-page.tsx']);
    const state = JSON.parse(result.state ?? '{}') as { api: { queries: Record<string, { status: string }> } };
    expect(Object.values(state.api.queries).map((query) => query.status)).toEqual(['fulfilled', 'fulfilled']);
    // only the slices the render changed travel (the session's and the data's), as one JSON object
    expect(Object.keys(state).sort()).toEqual(['api', 'auth']);
    // one look at the session, one at the teacher, one at the first page of their reviews
    expect(fetch.mock.calls.map(([request]) => new URL(request.url).pathname).sort()).toEqual([
      '/api/auth/get-session',
      `/api/teachers/${teacher!.id}`,
      `/api/teachers/${teacher!.id}/reviews`,
    ]);
  });

  it("a signed-in page whose user has no favourites sends that: the browser's older copy is not taken", async () => {
    // the browser still holds favourites from before (removed since, e.g. by the heart's form without JavaScript)
    localStorage.setItem('teachers', JSON.stringify([teacher]));
    try {
      const session = { session: { id: 's1' }, user: { id: 'u1', name: 'Ann', email: 'ann@example.com' } };
      const fetch = fakeApi({ '/api/auth/get-session': () => Response.json(session), '/api/favorites': () => Response.json({ items: [] }) });
      const result = await renderPage(`/teachers/${teacher!.id}`, fetch);
      expect(fetch.mock.calls.map(([request]) => new URL(request.url).pathname)).toContain('/api/favorites');
      const state = JSON.parse(result.state ?? '{}') as Partial<RootState>;
      expect(state.teachers?.favorites).toEqual([]);
      // the browser's store starts from it, not from its own copy
      expect(makeStore(state).getState().teachers.favorites).toEqual([]);
    } finally {
      localStorage.removeItem('teachers');
    }
  });

  it("an API that fails on the server's side: the page's own error state, with status 500", async () => {
    const failing = () => Response.json({ code: 'INTERNAL', message: 'boom' }, { status: 500 });
    const result = await renderPage(`/teachers/${teacher!.id}`, fakeApi({ [`/api/teachers/${teacher!.id}`]: failing }));
    expect(result.status).toBe(500);
    expect(result.html).toContain('Could not load this teacher');
  });

  it('a page that throws while rendering: the Unexpected Application Error! page, status 500, nothing for the browser to hydrate', async () => {
    vi.doMock('./app/pages/home-page', () => ({
      prefetch: undefined,
      Component: () => {
        throw new Error('secret internals');
      },
    }));
    const { render: renderFresh } = await import('./entry-server');
    const result = await renderFresh({ url: '/', fetch: fakeApi(), sessionCookie: false, publicOrigin: 'https://learnlingo.example', contactEmail: null });
    if (result.kind !== 'page') throw new Error('expected a page');
    expect(result.status).toBe(500);
    expect(result.html).toContain('Unexpected Application Error!');
    // what failed stays on the server
    expect(result.html).not.toContain('secret internals');
    expect(result.state).toBeNull();
    expect(result.error).toBeInstanceOf(Error);
    expect(String(result.error)).toContain('secret internals');
  });

  it('a page still waiting after the render timeout (10 s): the Unexpected Application Error! page, status 500', async () => {
    // React's renderer schedules its work with setImmediate: only the renderer's own timer is faked
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const never = new Promise<never>(() => undefined);
      vi.doMock('./app/pages/home-page', async () => {
        // (the React the fresh entry-server imports: hooks of another copy would throw at once)
        const react = await import('react');
        return {
          prefetch: undefined,
          Component: function Hung() {
            return react.use(never);
          },
        };
      });
      const { render: renderFresh } = await import('./entry-server');
      let settled = false;
      const pending = renderFresh({ url: '/', fetch: fakeApi(), sessionCookie: false, publicOrigin: 'https://learnlingo.example', contactEmail: null });
      void pending.finally(() => (settled = true));
      await vi.advanceTimersByTimeAsync(9_900);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(200);
      const result = await pending;
      if (result.kind !== 'page') throw new Error('expected a page');
      expect(result.status).toBe(500);
      expect(result.html).toContain('Unexpected Application Error!');
      expect(result.state).toBeNull();
      expect(String(result.error)).toContain('took too long');
    } finally {
      vi.useRealTimers();
    }
  });

  it('renderToHtml: a tree that never finishes rejects at the timeout; one that finishes leaves no timer', async () => {
    const never = new Promise<never>(() => undefined);
    function Hung(): string {
      return use(never);
    }
    const started = Date.now();
    await expect(
      renderToHtml(
        <Suspense fallback="…">
          <Hung />
        </Suspense>,
        50,
      ),
    ).rejects.toThrow('The page took too long to render');
    expect(Date.now() - started).toBeLessThan(5_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await expect(renderToHtml(<p>done</p>, 50)).resolves.toBe('<p>done</p>');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a session that cannot be read: no redirect (the browser decides), and the HTML says so', async () => {
    const result = await render({
      url: '/favorites',
      fetch: fakeApi({ '/api/auth/get-session': () => new Response('busy', { status: 503 }) }),
      sessionCookie: true,
      publicOrigin: 'https://learnlingo.example',
      contactEmail: null,
    });
    expect(result.kind).toBe('page');
    expect(result.kind === 'page' && result.sessionKnown).toBe(false);
  });

  it('without a session cookie the session is not asked for: a known visitor (redirected from /favorites)', async () => {
    const fetch = fakeApi({ '/api/auth/get-session': () => new Response('busy', { status: 503 }) });
    const result = await render({ url: '/favorites', fetch, sessionCookie: false, publicOrigin: 'https://learnlingo.example', contactEmail: null });
    expect(result).toEqual({ kind: 'redirect', status: 302, location: '/' });
    const asked = fetch.mock.calls.map(([request]) => new URL(request.url).pathname);
    expect(asked).not.toContain('/api/auth/get-session');
  });

  it('forgets the store of each page it rendered (one per request: none is kept)', async () => {
    await renderPage(`/teachers/${teacher!.id}`);
    const before = rememberedStores();
    for (let i = 0; i < 5; i += 1) await renderPage(`/teachers/${teacher!.id}`);
    await renderPage('/no-such-page');
    expect(rememberedStores()).toBe(before);
  });

  it('head tags and the state are escaped: nothing in the data can close an element', () => {
    const head = headTags(
      { title: '</title><script>alert(1)</script>', description: '"quoted" & <b>', jsonLd: { name: '</script><script>x()</script>' } },
      '/teachers/x',
      'https://learnlingo.example',
    );
    expect(head).not.toContain('<script>alert');
    expect(head).toContain('&lt;/title&gt;');
    expect(head).toContain('&quot;quoted&quot; &amp; &lt;b&gt;');
    expect(head).not.toContain('</script><script>');
    expect(JSON.parse(scriptJson({ text: '</script><!--' })) as unknown).toEqual({ text: '</script><!--' });
    expect(scriptJson({ text: '</script><!--' })).not.toMatch(/[<>]/);
  });

  it("every route's handle names the module it loads (the server links that module's CSS)", async () => {
    const handles: RouteHandle[] = [];
    const visit = (list: typeof routes) =>
      list.forEach((route) => {
        if (route.handle) handles.push(route.handle as RouteHandle);
        if (route.children) visit(route.children);
      });
    visit(routes);
    expect(handles.length).toBeGreaterThan(6);
    for (const handle of handles) {
      const named = (await import(`./app/pages/${handle.module}.tsx`)) as unknown;
      expect(await handle.load(), handle.module).toBe(named);
    }
  });
});
