import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { accountMessages, validationMessages as m } from '@learnlingo/contract';
import { renderApp } from '../../../../test/render';
import { apiUrl, server } from '../../../../test/msw-server';
import { sessionOf, signedInState } from '../../../../test/auth-state';

afterEach(() => toast.remove());

/** A signed-in user on /account; the server remembers the bodies it got. */
function openAccount({ emailVerified = true } = {}) {
  const bodies: Record<string, unknown> = {};
  let name = 'Ann Lee';
  const remember = (path: string, reply: () => Response) =>
    http.post(apiUrl(path), async ({ request }) => {
      bodies[path] = await request.json();
      return reply();
    });
  server.use(
    http.get(apiUrl('/auth/get-session'), () =>
      HttpResponse.json({ ...sessionOf(name), user: { ...sessionOf(name).user, emailVerified } }),
    ),
    remember('/auth/update-user', () => {
      name = (bodies['/auth/update-user'] as { name: string }).name;
      return HttpResponse.json({ status: true });
    }),
    remember('/auth/change-password', () => HttpResponse.json({ token: 't2', user: sessionOf(name).user })),
    remember('/auth/revoke-other-sessions', () => HttpResponse.json({ status: true })),
    remember('/auth/send-verification-email', () => HttpResponse.json({ status: true })),
    remember('/auth/delete-user', () => HttpResponse.json({ success: true, message: 'User deleted' })),
  );
  const view = renderApp('/account', { preloadedState: signedInState() });
  return { ...view, bodies };
}

describe('/account', () => {
  it('a visitor is sent to /', async () => {
    const { router } = renderApp('/account');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('the header greets the user with a link to it', async () => {
    const { user, router } = openAccount();
    await screen.findByRole('heading', { level: 1, name: 'Account' });
    await user.click(screen.getByRole('link', { name: 'Welcome Ann Lee' }));
    expect(router.state.location.pathname).toBe('/account');
    expect(screen.getByRole('link', { name: 'Welcome Ann Lee' })).toHaveAttribute('href', '/account');
  });

  it('changes the name under the registration rule; the header follows', async () => {
    const { user, bodies } = openAccount();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Ann Lee');
    await user.clear(name);
    expect(await screen.findByText(m.nameRequired)).toBeInTheDocument();
    await user.type(name, 'Ann Smith');
    await user.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText(accountMessages.nameChanged)).toBeInTheDocument();
    expect(bodies['/auth/update-user']).toEqual({ name: 'Ann Smith' });
    expect(screen.getByText('Welcome Ann Smith')).toBeInTheDocument();
  });

  it('changes the password: the current one required, the new one under the rules, other devices signed out', async () => {
    const { user, bodies } = openAccount();
    const current = await screen.findByLabelText('Current password');
    const next = screen.getByLabelText('New password');
    // submitted before the app runs, the browser posts: no password, name or e-mail in a URL
    for (const form of document.querySelectorAll('form')) expect(form).toHaveAttribute('method', 'post');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findAllByText(m.passwordRequired)).toHaveLength(2);
    await user.type(current, 'old-secret1');
    await user.type(next, '12345678');
    expect(await screen.findByText(m.passwordNeedsLetter)).toBeInTheDocument();
    await user.type(next, 'b');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(accountMessages.passwordChanged)).toBeInTheDocument();
    expect(bodies['/auth/change-password']).toEqual({
      currentPassword: 'old-secret1',
      newPassword: '12345678b',
      revokeOtherSessions: true,
    });
    await waitFor(() => expect(current).toHaveValue(''));
  });

  it('a wrong current password is said under that field, and what was typed stays', async () => {
    const { user, store } = openAccount();
    server.use(
      http.post(apiUrl('/auth/change-password'), () =>
        HttpResponse.json({ code: 'INVALID_PASSWORD', message: 'Invalid password' }, { status: 400 }),
      ),
    );
    await user.type(await screen.findByLabelText('Current password'), 'wrong-pass1');
    await user.type(screen.getByLabelText('New password'), 'new-secret1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText(accountMessages.wrongPassword)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(accountMessages.wrongPassword);
    expect(screen.getByLabelText('New password')).toHaveValue('new-secret1');
    expect(store.getState().auth.isLoggedIn).toBe(true);
  });

  it('signs out every other device', async () => {
    const { user, bodies } = openAccount();
    await user.click(await screen.findByRole('button', { name: 'Sign out other devices' }));
    expect(await screen.findByText(accountMessages.otherSessionsEnded)).toBeInTheDocument();
    expect(bodies['/auth/revoke-other-sessions']).toEqual({});
  });

  it('deletes the account after the password is typed: signed out, home', async () => {
    const { user, bodies, store, router } = openAccount();
    await user.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    const password = within(dialog).getByLabelText('Password');
    await waitFor(() => expect(password).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(m.passwordRequired)).toBeInTheDocument();
    expect(bodies['/auth/delete-user']).toBeUndefined();

    await user.type(password, 'secret-pass1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText(accountMessages.accountDeleted)).toBeInTheDocument();
    expect(bodies['/auth/delete-user']).toEqual({ password: 'secret-pass1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });

  it('a wrong password deletes nothing and says so', async () => {
    const { user, store } = openAccount();
    server.use(
      http.post(apiUrl('/auth/delete-user'), () =>
        HttpResponse.json({ code: 'INVALID_PASSWORD', message: 'Invalid password' }, { status: 400 }),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete account' });
    await user.type(within(dialog).getByLabelText('Password'), 'wrong-pass1');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText(accountMessages.wrongPassword)).toBeInTheDocument();
    expect(store.getState().auth.isLoggedIn).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('an unconfirmed e-mail gets a quiet note with a new link on request', async () => {
    const { user, bodies } = openAccount({ emailVerified: false });
    expect(await screen.findByText(/Please confirm your email/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByText(accountMessages.verificationSent)).toBeInTheDocument();
    expect(bodies['/auth/send-verification-email']).toEqual({ email: 'ann@example.com', callbackURL: '/account?email=confirmed' });
  });

  it('a confirmed e-mail gets no note', async () => {
    openAccount({ emailVerified: true });
    await screen.findByRole('heading', { level: 2, name: 'Name' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText(/Please confirm your email/)).not.toBeInTheDocument();
  });

  it('a session that ended meanwhile (401) signs the tab out and leaves the page', async () => {
    const { user, router } = openAccount();
    server.use(
      http.post(apiUrl('/auth/revoke-other-sessions'), () =>
        HttpResponse.json({ code: 'UNAUTHORIZED', message: 'Unauthorized' }, { status: 401 }),
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Sign out other devices' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('link', { name: 'Log in' })).toBeInTheDocument();
  });
});
