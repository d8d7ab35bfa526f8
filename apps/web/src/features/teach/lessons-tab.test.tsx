import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import type { TeachLessonItem, TeachLessonsPage, TeachLessonView } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { signedInSession, signedInState } from '../favorites/testing/session';
import { makeStore } from '../../store';
import { teachLessonsApi } from './api/lessons-api';
import { prefetchTeachLessons } from './components/lessons-tab';
import { profile } from './teach-fixtures';

afterEach(() => toast.remove());

/** The first render imports the lazy page's modules: slow on a loaded machine (the transform, not the app). */
const FIRST_LOAD = { timeout: 15_000 };

const ZONE = 'America/New_York';
const clock = (date: string, weekday: string, time: string) => ({ date, weekday, time, offset: '-05:00' });

function item(id: number, extra: Partial<TeachLessonItem> = {}): TeachLessonItem {
  return {
    id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    state: 'confirmed',
    start: '2026-03-06T19:00:00.000Z',
    end: '2026-03-06T20:00:00.000Z',
    learner: { fullName: `Learner ${id}` },
    language: 'French',
    reason: 'Living abroad',
    createdAt: '2026-03-01T10:00:00.000Z',
    answerBy: null,
    acceptedAt: null,
    cancelledAt: null,
    cancelledBy: null,
    cancelReason: null,
    cancellable: true,
    localStart: clock('2026-03-06', 'Fri', '14:00'),
    localEnd: clock('2026-03-06', 'Fri', '15:00'),
    answerByLocal: null,
    ...extra,
  };
}

const REQUEST = item(1, {
  state: 'requested',
  learner: { fullName: 'Ada Lovelace' },
  answerBy: '2026-03-05T14:00:00.000Z',
  answerByLocal: clock('2026-03-05', 'Thu', '09:00'),
  cancellable: false,
});
const UPCOMING = item(2, { learner: { fullName: 'Bo Chen' } });
const PAST = [3, 4, 5].map((n) => item(n, { state: 'past', cancellable: false, learner: { fullName: `Past learner ${n}` } }));

/** The server's pages: requests and upcoming one page each, past two pages (the second after a cursor). */
function lessonsServer(state: { requests: TeachLessonItem[]; upcoming: TeachLessonItem[] }) {
  const pageOf = (view: TeachLessonView, cursor: string | null): TeachLessonsPage => {
    if (view === 'past') {
      return cursor === 'past-2' ? { view, timeZone: ZONE, items: PAST.slice(2), nextCursor: null } : { view, timeZone: ZONE, items: PAST.slice(0, 2), nextCursor: 'past-2' };
    }
    return { view, timeZone: ZONE, items: state[view], nextCursor: null };
  };
  return [
    signedInSession,
    http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
    http.get(apiUrl('/teach/profile'), () => HttpResponse.json(profile)),
    http.get(apiUrl('/teach/lessons'), ({ request }) => {
      const url = new URL(request.url);
      return HttpResponse.json(pageOf(url.searchParams.get('view') as TeachLessonView, url.searchParams.get('cursor')));
    }),
  ];
}

describe("the server's render of /teach/lessons", () => {
  it("asks for the three first pages at once and caches each as its view's first page", async () => {
    const asked: string[] = [];
    const pages = { requests: [REQUEST], upcoming: [UPCOMING], past: PAST };
    server.use(
      http.get(apiUrl('/teach/lessons/first-pages'), ({ request }) => {
        asked.push(new URL(request.url).pathname);
        const page = (view: TeachLessonView) => ({ view, timeZone: ZONE, items: pages[view], nextCursor: null });
        return HttpResponse.json({ requests: page('requests'), upcoming: page('upcoming'), past: page('past') });
      }),
      http.get(apiUrl('/teach/lessons'), ({ request }) => {
        asked.push(request.url);
        return HttpResponse.json({ error: { code: 'NOPE', message: 'not asked for' } }, { status: 500 });
      }),
    );
    const store = makeStore();
    await prefetchTeachLessons(store.dispatch, new URLSearchParams());
    expect(asked).toEqual(['/api/teach/lessons/first-pages']);
    // (the store's type knows the api slice only as the shell declares it, without this feature's endpoints)
    type WithLessons = Parameters<ReturnType<typeof teachLessonsApi.endpoints.getTeachLessons.select>>[0];
    const state = store.getState() as unknown as WithLessons;
    for (const view of ['requests', 'upcoming', 'past'] as const) {
      expect(teachLessonsApi.endpoints.getTeachLessons.select({ view, cursor: undefined })(state).data?.items, view).toEqual(pages[view]);
    }
  });
});

describe('/teach/lessons', () => {
  it('shows requests, upcoming and past lessons with times in the named zone, and pages the past with More', async () => {
    server.use(...lessonsServer({ requests: [REQUEST], upcoming: [UPCOMING] }));
    const { user } = renderApp('/teach/lessons', { preloadedState: signedInState() });
    const requests = await screen.findByRole('list', { name: 'Requests waiting for your answer' }, FIRST_LOAD);
    expect(screen.getByRole('link', { name: 'Lessons' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText(ZONE)).toBeInTheDocument();
    const ada = await within(requests).findByRole('article', { name: 'Ada Lovelace' });
    expect(within(ada).getByText('Fri 6 Mar 2026, 14:00–15:00')).toBeInTheDocument();
    expect(within(ada).getByText(/Answer by Thu 5 Mar 2026, 09:00/)).toBeInTheDocument();
    expect(within(ada).getByText(/Living abroad/)).toBeInTheDocument();
    expect(within(ada).getByRole('button', { name: /^Accept/ })).toBeEnabled();

    const upcoming = screen.getByRole('list', { name: 'Upcoming lessons' });
    expect(await within(upcoming).findByRole('button', { name: /^Cancel: Bo Chen/ })).toBeInTheDocument();

    const past = screen.getByRole('list', { name: 'Past lessons' });
    expect(await within(past).findAllByRole('article')).toHaveLength(2);
    const more = within(past).getByRole('link', { name: 'More past' });
    expect(more).toHaveAttribute('href', '/teach/lessons?past=past-2#past');
    await user.click(more);
    expect(await within(past).findByRole('article', { name: 'Past learner 5' })).toBeInTheDocument();
    expect(within(past).getAllByRole('article')).toHaveLength(3);
    expect(within(past).queryByRole('link', { name: 'More past' })).not.toBeInTheDocument();
    expect(within(past).queryByRole('button', { name: /^Cancel/ })).not.toBeInTheDocument();
  });

  it('accepts a request: it moves to Upcoming', async () => {
    const state = { requests: [REQUEST], upcoming: [UPCOMING] };
    const calls: string[] = [];
    server.use(
      ...lessonsServer(state),
      http.post(apiUrl('/teach/lessons/:id/accept'), ({ params }) => {
        calls.push(`accept ${String(params.id)}`);
        const accepted = { ...REQUEST, state: 'confirmed' as const, answerBy: null, answerByLocal: null, cancellable: true };
        state.requests = [];
        state.upcoming = [accepted, UPCOMING];
        const { localStart: _s, localEnd: _e, answerByLocal: _a, ...lesson } = accepted;
        return HttpResponse.json(lesson);
      }),
    );
    const { user } = renderApp('/teach/lessons', { preloadedState: signedInState() });
    const requests = await screen.findByRole('list', { name: 'Requests waiting for your answer' }, FIRST_LOAD);
    const accept = await within(requests).findByRole('button', { name: /^Accept: Ada Lovelace/ });
    await waitFor(() => expect(accept).toBeEnabled());
    await user.click(accept);
    const upcoming = screen.getByRole('list', { name: 'Upcoming lessons' });
    expect(await within(upcoming).findByRole('article', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(await within(requests).findByText('No request is waiting for your answer.')).toBeInTheDocument();
    expect(calls).toEqual([`accept ${REQUEST.id}`]);
  });

  it('cancels only with a reason, in a dialog, and shows what the server refused', async () => {
    const calls: string[] = [];
    server.use(
      ...lessonsServer({ requests: [], upcoming: [UPCOMING] }),
      http.post(apiUrl('/teach/lessons/:id/cancel'), async ({ request }) => {
        calls.push(JSON.stringify(await request.json()));
        return HttpResponse.json({ error: { code: 'CANCEL_TOO_LATE', message: 'Lessons can be cancelled up to 12 hours before they start.' } }, { status: 409 });
      }),
    );
    const { user } = renderApp('/teach/lessons', { preloadedState: signedInState() });
    const upcoming = await screen.findByRole('list', { name: 'Upcoming lessons' }, FIRST_LOAD);
    await user.click(await within(upcoming).findByRole('button', { name: /^Cancel: Bo Chen/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this lesson?' });
    expect(within(dialog).getByText(/Bo Chen, Fri 6 Mar 2026, 14:00–15:00 \(America\/New_York\)/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel lesson' }));
    expect(within(dialog).getByText('Say why in a few words')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await user.type(within(dialog).getByLabelText('Reason (sent to the learner)'), 'I am ill');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel lesson' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Lessons can be cancelled up to 12 hours before they start.');
    expect(calls).toEqual([JSON.stringify({ reason: 'I am ill' })]);
    await user.click(within(dialog).getByRole('button', { name: 'Keep the lesson' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('declines a request with an optional reason', async () => {
    const calls: string[] = [];
    const state = { requests: [REQUEST], upcoming: [] };
    server.use(
      ...lessonsServer(state),
      http.post(apiUrl('/teach/lessons/:id/decline'), async ({ request }) => {
        calls.push(JSON.stringify(await request.json()));
        state.requests = [];
        const { localStart: _s, localEnd: _e, answerByLocal: _a, ...lesson } = { ...REQUEST, state: 'declined' as const, answerBy: null, answerByLocal: null };
        return HttpResponse.json(lesson);
      }),
    );
    const { user } = renderApp('/teach/lessons', { preloadedState: signedInState() });
    const requests = await screen.findByRole('list', { name: 'Requests waiting for your answer' }, FIRST_LOAD);
    await user.click(await within(requests).findByRole('button', { name: /^Decline: Ada Lovelace/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline this request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline request' }));
    expect(await within(requests).findByText('No request is waiting for your answer.')).toBeInTheDocument();
    expect(calls).toEqual(['{}']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a learner (the API says 403) gets the not-found page', async () => {
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/teach/profile'), () => HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'no' } }, { status: 403 })),
      http.get(apiUrl('/teach/lessons'), () => HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'no' } }, { status: 403 })),
    );
    renderApp('/teach/lessons', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, FIRST_LOAD)).toBeInTheDocument();
  });
});
