import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { accountMessages, validationMessages as m } from '@learnlingo/contract';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/msw-server';

afterEach(() => toast.remove());

async function openLogin(url = '/') {
  const view = renderApp(url);
  await screen.findByRole('heading', { level: 1 });
  await view.user.click(screen.getByRole('link', { name: 'Log in' }));
  const dialog = await screen.findByRole('dialog', { name: 'Login' });
  await within(dialog).findByLabelText('Email');
  return { ...view, dialog };
}

async function openForgotPassword() {
  const view = await openLogin();
  await view.user.click(within(view.dialog).getByRole('link', { name: 'Forgot password?' }));
  const dialog = await screen.findByRole('dialog', { name: 'Forgot password' });
  await within(dialog).findByLabelText('Email');
  return { ...view, dialog };
}

describe('Forgot password', () => {
  it('Login → "Forgot password?" → the e-mail → always the same answer', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/auth/request-password-reset'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ status: true, message: 'If this email exists in our system, check your email for the reset link' });
      }),
    );
    const { dialog, user } = await openForgotPassword();
    expect(screen.queryByRole('dialog', { name: 'Login' })).not.toBeInTheDocument();
    expect(dialog).toHaveAccessibleDescription(/send you a link to set a new password/);
    await waitFor(() => expect(within(dialog).getByLabelText('Email')).toHaveFocus());

    await user.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(await within(dialog).findByText(m.emailRequired)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Email'), 'ann@');
    expect(await within(dialog).findByText(m.invalidEmail)).toBeInTheDocument();
    expect(body).toBeUndefined();

    await user.type(within(dialog).getByLabelText('Email'), 'example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(accountMessages.resetLinkSent);
    expect(body).toEqual({ email: 'ann@example.com', redirectTo: '/reset-password' });

    await user.click(within(dialog).getByRole('button', { name: 'Back to Log In' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
  });

  it('"Forgot password?" is a link to /forgot-password with the way back; a plain click opens the modal instead', async () => {
    const { dialog, user, router } = await openLogin('/teachers?language=French');
    const link = within(dialog).getByRole('link', { name: 'Forgot password?' });
    expect(link).toHaveAttribute('href', '/forgot-password?next=%2Fteachers%3Flanguage%3DFrench');
    await user.click(link);
    expect(await screen.findByRole('dialog', { name: 'Forgot password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/teachers');
  });

  it('on the /login page the link keeps the page’s next; /forgot-password is the modal’s form as a page', async () => {
    const { user } = renderApp('/login?next=%2Fteachers');
    const link = await screen.findByRole('link', { name: 'Forgot password?' });
    expect(link).toHaveAttribute('href', '/forgot-password?next=%2Fteachers');
    await user.click(link);
    const dialog = await screen.findByRole('dialog', { name: 'Forgot password' });
    await within(dialog).findByLabelText('Email');

    cleanup();
    renderApp('/forgot-password?next=%2Fteachers');
    const page = within((await screen.findByRole('heading', { level: 1, name: 'Forgot password' })).closest('section') as HTMLElement);
    expect(page.getByText(/send you a link to set a new password/)).toBeInTheDocument();
    const form = page.getByRole('button', { name: 'Send link' }).closest('form');
    expect(form).toHaveAttribute('action', '/forgot-password');
    expect(form).toHaveAttribute('method', 'post');
    expect(page.getByLabelText('Email')).toBeVisible();
    expect(page.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?next=%2Fteachers');
  });

  it('too many requests: says how long to wait (Retry-After) and keeps the e-mail', async () => {
    server.use(
      http.post(apiUrl('/auth/request-password-reset'), () =>
        HttpResponse.json(
          { code: 'RATE_LIMITED', message: 'Too many attempts.' },
          { status: 429, headers: { 'X-Retry-After': '42' } },
        ),
      ),
    );
    const { dialog, user } = await openForgotPassword();
    await user.type(within(dialog).getByLabelText('Email'), 'ann@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('Too many attempts. Please wait 42 seconds and try again.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('Login and Registration lead to each other', async () => {
    const { dialog, user } = await openLogin();
    await user.click(within(dialog).getByRole('button', { name: 'Registration' }));
    const registration = await screen.findByRole('dialog', { name: 'Registration' });
    expect(screen.queryByRole('dialog', { name: 'Login' })).not.toBeInTheDocument();
    await within(registration).findByLabelText('Name');
    await user.click(within(registration).getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Registration' })).not.toBeInTheDocument();
  });
});

describe('/reset-password', () => {
  it('sets a new password under the registration rules, then asks to log in with it', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/auth/reset-password'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ status: true });
      }),
    );
    const { user, router } = renderApp('/reset-password?token=abcDEF123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Set a new password' })).toBeInTheDocument();
    const password = await screen.findByLabelText('New password');
    // submitted before the app runs, the browser posts: a password never goes into a URL
    expect(password.closest('form')).toHaveAttribute('method', 'post');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText(m.passwordRequired)).toBeInTheDocument();
    await user.type(password, '1234');
    expect(await screen.findByText(m.passwordTooShort)).toBeInTheDocument();
    await user.type(password, '5678');
    expect(await screen.findByText(m.passwordNeedsLetter)).toBeInTheDocument();
    expect(password).toHaveAccessibleDescription(m.passwordNeedsLetter);
    await user.type(password, 'a');
    await user.click(screen.getByRole('button', { name: 'Save password' }));

    expect(await screen.findByText(accountMessages.passwordReset)).toBeInTheDocument();
    expect(body).toEqual({ newPassword: '12345678a', token: 'abcDEF123' });
    expect(await screen.findByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a used or expired link (INVALID_TOKEN) says so and offers a new one', async () => {
    server.use(
      http.post(apiUrl('/auth/reset-password'), () =>
        HttpResponse.json({ code: 'INVALID_TOKEN', message: 'Invalid token' }, { status: 400 }),
      ),
    );
    const { user } = renderApp('/reset-password?token=used-token');
    await user.type(await screen.findByLabelText('New password'), 'new-secret1');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.resetLinkInvalid);
    await user.click(screen.getByRole('button', { name: 'Send me a new link' }));
    expect(await screen.findByRole('dialog', { name: 'Forgot password' })).toBeInTheDocument();
  });

  it.each([
    ['no token', '/reset-password'],
    ['better-auth’s error redirect', '/reset-password?error=INVALID_TOKEN'],
    ['a malformed token', `/reset-password?token=${'x'.repeat(300)}`],
  ])('%s: the invalid-link message, no form', async (_label, url) => {
    renderApp(url);
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.resetLinkInvalid);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
  });
});
