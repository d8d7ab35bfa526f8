import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import { MemoryRouter } from 'react-router';
import toast from 'react-hot-toast';
import { accountMessages } from '@learnlingo/contract';
import { renderApp } from '../test/render';
import { apiUrl, server } from '../test/msw-server';
import { sessionOf, signedInState } from '../test/auth-state';
import { RouteErrorBoundary } from './route-error';

/** A route that throws while rendering, inside the boundary that wraps the app's routes. */
function renderFailingRoute(error: unknown) {
  // React reports an error caught by a boundary through console.error.
  const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  const Failing = () => {
    throw error;
  };
  render(
    <MemoryRouter>
      <RouteErrorBoundary>
        <Failing />
      </RouteErrorBoundary>
    </MemoryRouter>,
  );
  return { reported: () => consoleError.mock.calls.length > 0 };
}

afterEach(() => toast.remove());

describe('session restore at start', () => {
  it('shows the spinner while asking, then greets the restored user', async () => {
    server.use(
      http.get(apiUrl('/auth/get-session'), async () => {
        await delay(300);
        return HttpResponse.json(sessionOf('Ola Nowak', 'ola@example.com'));
      }),
    );
    const { store } = renderApp('/');
    expect(store.getState().auth.isRefresh).toBe(true);
    expect(await screen.findByText('Restoring your session')).toBeInTheDocument();
    expect(await screen.findByText('Welcome Ola Nowak')).toBeInTheDocument();
    expect(store.getState().auth).toMatchObject({
      isLoggedIn: true,
      isRefresh: false,
      user: { name: 'Ola Nowak', email: 'ola@example.com' },
    });
  });

  it('ends as a visitor when there is no session', async () => {
    const { store } = renderApp('/');
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(store.getState().auth).toMatchObject({ isLoggedIn: false, isRefresh: false });
  });
});

describe('/favorites guard', () => {
  it('redirects a visitor to / once the session is known', async () => {
    const { router } = renderApp('/favorites');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { level: 1, name: /Unlock your potential/ })).toBeInTheDocument();
  });

  it('does not redirect while the session is still being restored', async () => {
    server.use(
      http.get(apiUrl('/auth/get-session'), async () => {
        await delay(150);
        return HttpResponse.json(sessionOf());
      }),
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
    );
    const { router } = renderApp('/favorites');
    await screen.findByText('Restoring your session');
    expect(router.state.location.pathname).toBe('/favorites');
    expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/favorites');
  });

  it('lets a signed-in user in', async () => {
    server.use(
      http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf())),
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
    );
    const { router } = renderApp('/favorites', { preloadedState: signedInState() });
    expect(await screen.findByRole('link', { name: 'Favorites' })).toHaveAttribute('aria-current', 'page');
    expect(router.state.location.pathname).toBe('/favorites');
  });
});

describe('logout', () => {
  it('ends the session, clears the user and the teachers state, toasts and goes home', async () => {
    let signOutBody: unknown;
    server.use(
      http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf())),
      http.post(apiUrl('/auth/sign-out'), async ({ request }) => {
        signOutBody = await request.json();
        return HttpResponse.json({ success: true });
      }),
    );
    const { user, store, router } = renderApp('/no-such-page', { preloadedState: signedInState() });
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logout successfully')).toBeInTheDocument();
    expect(signOutBody).toEqual({});
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().auth).toMatchObject({ isLoggedIn: false, user: { name: '', email: '' } });
    expect(store.getState().teachers.favorites).toEqual([]);
    expect(screen.getByRole('link', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Favorites' })).not.toBeInTheDocument();
  });

  it.each([
    ['the server is unreachable', () => HttpResponse.error()],
    ['the server fails', () => HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, { status: 500 })],
  ])('keeps the user signed in when %s: console, a toast that says so, never "Logout successfully"', async (_label, reply) => {
    server.use(
      http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf())),
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.post(apiUrl('/auth/sign-out'), reply),
    );
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user, store, router } = renderApp('/no-such-page', { preloadedState: signedInState() });
    await screen.findByRole('heading', { level: 1, name: 'Page not found' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText(accountMessages.logoutFailed)).toBeInTheDocument();
    expect(screen.queryByText('Logout successfully')).not.toBeInTheDocument();
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, user: { name: 'Ann Lee' } });
    expect(screen.getByText('Welcome Ann Lee')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/no-such-page');
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(String(consoleError.mock.calls[0]?.[0])).toMatch(/Logout failed/);
  });
});

describe('pages', () => {
  it('home: headline, Get started to /teachers, figures from /api/stats', async () => {
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: /Unlock your potential/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/teachers');
    expect(await screen.findByText('33,000')).toBeInTheDocument();
    expect(screen.getByText('Lessons done')).toBeInTheDocument();
    expect(screen.getByText('30')).toBeInTheDocument();
  });

  it('home: says so when the figures cannot be loaded, and retries', async () => {
    server.use(http.get(apiUrl('/stats'), () => HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, { status: 500 })));
    const { user } = renderApp('/');
    expect(await screen.findByText('The figures could not be loaded.')).toBeInTheDocument();
    server.resetHandlers();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('33,000')).toBeInTheDocument();
  });

  it('not found: a page with a way home', async () => {
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('route error: the original heading with the status text, and a way back', async () => {
    const failing = renderFailingRoute(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' })).toBeInTheDocument();
    expect(screen.getByText('Service Unavailable')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    expect(failing.reported()).toBe(true);
  });

  it('route error: shows a thrown error’s message', async () => {
    const failing = renderFailingRoute(new Error('Chunk failed to load'));
    expect(await screen.findByText('Chunk failed to load')).toBeInTheDocument();
    expect(failing.reported()).toBe(true);
  });
});
