import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { loggedOut } from '../../auth';
import { apiUrl, server } from '../../../test/msw-server';
import { renderApp } from '../../../test/render';
import { catalogueHandlers } from '../../teachers/testing/catalogue-handlers';
import { catalogueOrder, loadTeachers } from '../../teachers/testing/teachers-fixture';
import { FAVORITES_STORAGE_KEY } from '../lib/favorites-storage';
import { signedInSession, signedInState } from '../testing/session';

const [first, second] = catalogueOrder(loadTeachers()) as [Teacher, Teacher];
const nameOf = (t: Teacher) => `${t.name} ${t.surname}`;
const card = (t: Teacher) => screen.getByRole('article', { name: nameOf(t) });
const heart = (t: Teacher) => within(card(t)).getByRole('button', { name: /favorites$/ });
const stored = () => JSON.parse(localStorage.getItem(FAVORITES_STORAGE_KEY) ?? '[]') as Teacher[];

interface Calls {
  method: string;
  id: string;
}

/** The catalogue plus favourites endpoints that remember a signed-in user's list. */
function setup({ signedIn, favorites = [] }: { signedIn: boolean; favorites?: Teacher[] }) {
  const catalogue = catalogueHandlers();
  const calls: Calls[] = [];
  const list = [...favorites];
  server.use(...catalogue.handlers);
  if (signedIn) {
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: list })),
      http.put(apiUrl('/favorites/:id'), async ({ params }) => {
        calls.push({ method: 'PUT', id: String(params.id) });
        await delay(50);
        return HttpResponse.json({ teacherId: params.id, favorite: true });
      }),
      http.delete(apiUrl('/favorites/:id'), ({ params }) => {
        calls.push({ method: 'DELETE', id: String(params.id) });
        return HttpResponse.json({ teacherId: params.id, favorite: false });
      }),
    );
  }
  const view = renderApp('/teachers', signedIn ? { preloadedState: signedInState() } : {});
  return { ...view, calls };
}

afterEach(() => toast.remove());

describe('the heart', () => {
  it('signed out: asks to sign in and opens the Login modal, without a request', async () => {
    const { user, store } = setup({ signedIn: false });
    await screen.findAllByRole('article');
    const button = heart(first);
    expect(button).toHaveAccessibleName('Add to favorites');
    expect(button).toHaveAttribute('aria-pressed', 'false');
    await user.click(button);
    expect((await screen.findAllByText('You need to authenticate')).length).toBeGreaterThan(0);
    expect(store.getState().ui.modal).toBe('login');
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(store.getState().teachers.favorites).toEqual([]);
  });

  it('is a form that posts the state it asks for and the way back (before hydration, without JavaScript)', async () => {
    setup({ signedIn: true, favorites: [first] });
    await screen.findAllByRole('article');
    await waitFor(() => expect(heart(first)).toHaveAttribute('aria-pressed', 'true'));
    const form = heart(first).closest('form');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/favorites');
    expect(heart(first)).toHaveAttribute('type', 'submit');
    expect(Object.fromEntries(new FormData(form!))).toEqual({ teacherId: first.id, favorite: 'false', next: '/teachers' });
    const other = heart(second).closest('form');
    expect(Object.fromEntries(new FormData(other!))).toEqual({ teacherId: second.id, favorite: 'true', next: '/teachers' });
  });

  it('signed in: toggles optimistically, toasts, and keeps the browser copy', async () => {
    const { user, calls, store } = setup({ signedIn: true });
    await screen.findAllByRole('article');
    await user.click(heart(first));
    // filled at once, before the server answers
    expect(heart(first)).toHaveAttribute('aria-pressed', 'true');
    expect(heart(first)).toHaveAccessibleName('Remove from favorites');
    expect(heart(first)).toHaveClass('active');
    expect((await screen.findAllByText('Teacher was added')).length).toBeGreaterThan(0);
    expect(calls).toEqual([{ method: 'PUT', id: first.id }]);
    expect(stored().map((t) => t.id)).toEqual([first.id]);

    await user.click(heart(first));
    expect(heart(first)).toHaveAttribute('aria-pressed', 'false');
    expect((await screen.findAllByText('Successfully deleted')).length).toBeGreaterThan(0);
    expect(calls.at(-1)).toEqual({ method: 'DELETE', id: first.id });
    expect(localStorage.getItem(FAVORITES_STORAGE_KEY)).toBeNull();
    expect(store.getState().teachers.favorites).toEqual([]);
  });

  it('rolls back with a clear toast when the server refuses', async () => {
    const { user } = setup({ signedIn: true });
    server.use(
      http.put(apiUrl('/favorites/:id'), async () => {
        // long enough that the optimistic state is still there when the click returns on a busy machine
        await delay(300);
        return HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'boom' } }, { status: 500 });
      }),
    );
    await screen.findAllByRole('article');
    await user.click(heart(first));
    expect(heart(first)).toHaveAttribute('aria-pressed', 'true');
    expect((await screen.findAllByText('Could not update your favorites. Please try again.')).length).toBeGreaterThan(0);
    expect(heart(first)).toHaveAttribute('aria-pressed', 'false');
    expect(localStorage.getItem(FAVORITES_STORAGE_KEY)).toBeNull();
    expect(screen.queryByText('Teacher was added')).not.toBeInTheDocument();
  });

  it('rolls a removal back too', async () => {
    const { user } = setup({ signedIn: true, favorites: [first] });
    server.use(http.delete(apiUrl('/favorites/:id'), () => HttpResponse.error()));
    await screen.findAllByRole('article');
    await waitFor(() => expect(heart(first)).toHaveAttribute('aria-pressed', 'true'));
    await user.click(heart(first));
    expect((await screen.findAllByText('Could not update your favorites. Please try again.')).length).toBeGreaterThan(0);
    expect(heart(first)).toHaveAttribute('aria-pressed', 'true');
    expect(stored().map((t) => t.id)).toEqual([first.id]);
  });

  it('the server copy replaces the browser copy once signed in', async () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first]));
    setup({ signedIn: true, favorites: [second] });
    await screen.findAllByRole('article');
    await waitFor(() => expect(heart(second)).toHaveAttribute('aria-pressed', 'true'));
    expect(heart(first)).toHaveAttribute('aria-pressed', 'false');
    expect(stored().map((t) => t.id)).toEqual([second.id]);
  });

  it('a reload shows the browser copy at once while the server copy loads', async () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first]));
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      ...catalogueHandlers().handlers,
      signedInSession,
      http.get(apiUrl('/favorites'), async () => {
        await answered;
        return HttpResponse.json({ items: [second] });
      }),
    );
    const { store } = renderApp('/teachers'); // a reload: the session is restored first
    await screen.findAllByRole('article');
    expect(store.getState().auth.isLoggedIn).toBe(true);
    expect(heart(first)).toHaveAttribute('aria-pressed', 'true');
    answer?.();
    await waitFor(() => expect(heart(second)).toHaveAttribute('aria-pressed', 'true'));
    expect(heart(first)).toHaveAttribute('aria-pressed', 'false');
  });

  it('a visitor known to be signed out gets no stale copy', async () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first]));
    server.use(...catalogueHandlers().handlers);
    const { store } = renderApp('/teachers', {
      preloadedState: {
        auth: { user: { name: '', email: '' }, isLoggedIn: false, isRefresh: false, isLoading: false, error: null },
      },
    });
    await screen.findAllByRole('article');
    expect(heart(first)).toHaveAttribute('aria-pressed', 'false');
    expect(store.getState().teachers.favorites).toEqual([]);
    expect(localStorage.getItem(FAVORITES_STORAGE_KEY)).toBeNull();
  });

  it('logout clears the browser copy', async () => {
    const { store } = setup({ signedIn: true, favorites: [first] });
    await screen.findAllByRole('article');
    await waitFor(() => expect(stored().map((t) => t.id)).toEqual([first.id]));
    store.dispatch(loggedOut());
    expect(localStorage.getItem(FAVORITES_STORAGE_KEY)).toBeNull();
    await waitFor(() => expect(heart(first)).toHaveAttribute('aria-pressed', 'false'));
  });
});
