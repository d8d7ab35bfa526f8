import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { renderApp } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState, signedOutState } from '../../test/auth-state';
import { consoleTabOf } from './console-layout-tabs';

/** The session the server answers (the app checks it at start) and the state it starts from. */
function as(role: 'admin' | 'learner' | 'teacher') {
  server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf('Ann Lee', 'ann@example.com', role))));
  return signedInState('Ann Lee', 'ann@example.com', role);
}

describe('the school console (/admin)', () => {
  it('an admin: the Admin link in the header, the console with its tabs; a tab is a link', async () => {
    server.use(
      http.get(apiUrl('/staff/activity'), () => HttpResponse.json({ items: [], next: null, total: 0 })),
      http.get(apiUrl('/staff/people'), () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 20 })),
    );
    const { user } = renderApp('/admin/activity', { preloadedState: as('admin') });
    expect(await screen.findByRole('heading', { level: 1, name: 'School console' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Console' });
    const tabs = within(nav).getAllByRole('link');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Teachers', 'Bookings', 'People', 'Activity', 'Settings', 'Reviews']);
    expect(within(nav).getByRole('link', { name: 'Teachers' })).toHaveAttribute('href', '/admin');
    expect(within(nav).getByRole('link', { name: 'Activity' })).toHaveAttribute('aria-current', 'page');
    expect(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    expect(await screen.findByText('Nothing has changed yet.')).toBeInTheDocument();

    await user.click(within(nav).getByRole('link', { name: 'People' }));
    expect(window.location.pathname).toBe('/admin/people');
    expect(within(nav).getByRole('link', { name: 'People' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('region', { name: 'People' })).toBeInTheDocument();
    expect(await screen.findByText('No accounts yet.')).toBeInTheDocument();
  });

  it.each(['learner', 'teacher'] as const)('a %s: no Admin link, and /admin is the not-found page', async (role) => {
    renderApp('/admin/people', { preloadedState: as(role) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'School console' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
  });

  it('a visitor is sent to the home page', async () => {
    renderApp('/admin', { preloadedState: signedOutState() });
    await screen.findByRole('link', { name: 'Log in' });
    await expect.poll(() => window.location.pathname).toBe('/');
  });

  it('an admin on a path that is no tab gets the not-found page', async () => {
    renderApp('/admin/nothing-here', { preloadedState: as('admin') });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});

describe('consoleTabOf', () => {
  it.each([
    ['/admin', 'teachers', ''],
    ['/admin/', 'teachers', ''],
    ['/admin/teachers', 'teachers', ''],
    ['/admin/teachers/new', 'teachers', '/new'],
    ['/admin/people', 'people', ''],
    ['/admin/activity/', 'activity', ''],
  ])('%s is the %s tab (rest %j)', (path, segment, rest) => {
    expect(consoleTabOf(path)).toMatchObject({ tab: { segment }, rest });
  });

  it.each(['/admin/nope', '/administrator', '/admin//people', `/admin/${'a'.repeat(400)}`, '/admin/x/y'])('%s is no tab', (path) => {
    expect(consoleTabOf(path)).toBeNull();
  });
});
