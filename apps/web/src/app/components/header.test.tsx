import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { renderApp } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState } from '../../test/auth-state';

afterEach(() => toast.remove());

describe('Header', () => {
  it('signed out: Home and Teachers links, Log in and Registration links, no Favorites', async () => {
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Teachers' })).not.toHaveAttribute('aria-current');
    expect(within(nav).queryByRole('link', { name: 'Favorites' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Registration' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'LearnLingo' })).toHaveAttribute('href', '/');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('signed in: Welcome {name}, Logout and the Favorites link', async () => {
    server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf('Ann Lee'))));
    renderApp('/', { preloadedState: signedInState('Ann Lee') });
    expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Favorites' })).toHaveAttribute('href', '/favorites');
    expect(screen.queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Registration' })).not.toBeInTheDocument();
  });

  it('Log in and Registration are links to the pages, with the way back; a plain click opens the modal instead', async () => {
    const { user } = renderApp('/teachers?language=French');
    const login = await screen.findByRole('link', { name: 'Log in' });
    expect(login).toHaveAttribute('href', '/login?next=%2Fteachers%3Flanguage%3DFrench');
    expect(screen.getByRole('link', { name: 'Registration' })).toHaveAttribute('href', '/register?next=%2Fteachers%3Flanguage%3DFrench');
    await user.click(login);
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/teachers');
  });

  it('the menu button opens the menu, a popover (the browser keeps its state; e2e/shell.spec.ts tries it)', async () => {
    renderApp('/');
    await screen.findByRole('heading', { level: 1 });
    const menu = screen.getByRole('button', { name: 'Menu' });
    const panel = document.getElementById(menu.getAttribute('popovertarget') ?? '');
    expect(panel).toHaveAttribute('popover', 'auto');
    expect(within(panel!).getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
