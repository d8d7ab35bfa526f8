import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { toastMessages, validationMessages as m } from '@learnlingo/contract';
import { renderApp } from '../../../test/render';
import { apiUrl, server } from '../../../test/msw-server';

afterEach(() => toast.remove());

async function openLogin() {
  const view = renderApp('/');
  await screen.findByRole('heading', { level: 1 });
  await view.user.click(screen.getByRole('link', { name: 'Log in' }));
  const dialog = await screen.findByRole('dialog', { name: 'Login' });
  await within(dialog).findByLabelText('Email');
  return { ...view, dialog };
}

async function openRegistration() {
  const view = renderApp('/');
  await screen.findByRole('heading', { level: 1 });
  await view.user.click(screen.getByRole('link', { name: 'Registration' }));
  const dialog = await screen.findByRole('dialog', { name: 'Registration' });
  await within(dialog).findByLabelText('Name');
  return { ...view, dialog };
}

const allMessages = Object.values(m);
const noMessagesShown = () => allMessages.forEach((text) => expect(screen.queryByText(text)).not.toBeInTheDocument());

describe('Login modal', () => {
  it('has the title, welcome text, fields, password toggle and "Log In"; no errors on mount', async () => {
    const { dialog, user } = await openLogin();
    await waitFor(() => expect(within(dialog).getByLabelText('Email')).toHaveFocus());
    noMessagesShown();
    expect(dialog).toHaveAccessibleDescription(/Welcome back!/);
    const password = within(dialog).getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(within(dialog).getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(within(dialog).getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
    expect(within(dialog).getByRole('button', { name: 'Log In' })).toBeInTheDocument();
  });

  it('shows each email and password message, in red under the field, on change and on blur', async () => {
    const { dialog, user } = await openLogin();
    const email = within(dialog).getByLabelText('Email');
    const password = within(dialog).getByLabelText('Password');

    await user.click(email);
    await user.tab(); // blur without typing
    expect(await within(dialog).findByText(m.emailRequired)).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(m.emailRequired);

    await user.type(email, 'ann@');
    expect(await within(dialog).findByText(m.invalidEmail)).toBeInTheDocument();
    await user.type(email, 'example.com');
    await waitFor(() => expect(within(dialog).queryByText(m.invalidEmail)).not.toBeInTheDocument());
    expect(email).not.toHaveAttribute('aria-invalid');

    await user.type(password, '1234');
    expect(await within(dialog).findByText(m.passwordTooShort)).toBeInTheDocument();
    await user.type(password, '5678');
    expect(await within(dialog).findByText(m.passwordNeedsLetter)).toBeInTheDocument();
    await user.type(password, 'a'.repeat(41));
    expect(await within(dialog).findByText(m.passwordTooLong)).toBeInTheDocument();
    await user.clear(password);
    expect(await within(dialog).findByText(m.passwordRequired)).toBeInTheDocument();
  });

  it('a submit attempt validates every field and sends nothing', async () => {
    let requests = 0;
    server.use(
      http.post(apiUrl('/auth/sign-in/email'), () => {
        requests += 1;
        return HttpResponse.json({});
      }),
    );
    const { dialog, user } = await openLogin();
    await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
    expect(await within(dialog).findByText(m.emailRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(m.passwordRequired)).toBeInTheDocument();
    expect(requests).toBe(0);
  });

  it('signs in: closes the modal, greets the user, toasts "Sign in successfully"', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/auth/sign-in/email'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ redirect: false, token: 't', user: { id: 'u1', name: 'Ann Lee', email: 'ann@example.com' } });
      }),
    );
    const { dialog, user, store } = await openLogin();
    await user.type(within(dialog).getByLabelText('Email'), 'ann@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(toastMessages.signInSuccess)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Welcome Ann Lee')).toBeInTheDocument();
    expect(body).toEqual({ email: 'ann@example.com', password: 'secret123' });
    expect(store.getState().auth).toMatchObject({ isLoggedIn: true, user: { name: 'Ann Lee', email: 'ann@example.com' } });
  });

  const failures: [string, () => Response, string][] = [
    [
      'INVALID_EMAIL_OR_PASSWORD',
      () => HttpResponse.json({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }, { status: 401 }),
      'Email or password is incorrect',
    ],
    ['429', () => HttpResponse.json({ message: 'Too many requests. Please try again later.' }, { status: 429 }), toastMessages.tooManyAttempts],
    ['500', () => HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, { status: 500 }), toastMessages.serverError],
    ['network failure', () => HttpResponse.error(), toastMessages.networkError],
  ];

  it.each(failures)('%s: toasts, keeps the modal open and what was typed', async (_label, reply, message) => {
    server.use(http.post(apiUrl('/auth/sign-in/email'), reply));
    const { dialog, user, store } = await openLogin();
    await user.type(within(dialog).getByLabelText('Email'), 'ann@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'wrongpass1');
    await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Login' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ann@example.com');
    expect(within(dialog).getByLabelText('Password')).toHaveValue('wrongpass1');
    expect(store.getState().auth.isLoggedIn).toBe(false);
  });
});

describe('Registration modal', () => {
  it('has the title, intro, Name/Email/Password and "Registration"; no errors on mount', async () => {
    const { dialog } = await openRegistration();
    expect(dialog).toHaveAccessibleDescription(/Thank you for your interest/);
    expect(within(dialog).getByLabelText('Email')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(within(dialog).getByRole('button', { name: 'Show password' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Registration' })).toBeInTheDocument();
    noMessagesShown();
  });

  it('a submit attempt shows the name, email and password messages', async () => {
    const { dialog, user } = await openRegistration();
    await user.click(within(dialog).getByRole('button', { name: 'Registration' }));
    expect(await within(dialog).findByText(m.nameRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(m.emailRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(m.passwordRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(m.nameRequired);
  });

  it('shows the name message when the name is cleared', async () => {
    const { dialog, user } = await openRegistration();
    const name = within(dialog).getByLabelText('Name');
    await user.type(name, 'A');
    expect(within(dialog).queryByText(m.nameRequired)).not.toBeInTheDocument();
    await user.clear(name);
    expect(await within(dialog).findByText(m.nameRequired)).toBeInTheDocument();
  });

  it('registers: closes the modal, greets the user, toasts "Signup successfully"', async () => {
    let body: unknown;
    server.use(
      http.post(apiUrl('/auth/sign-up/email'), async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ token: 't', user: { id: 'u2', name: 'Olena', email: 'olena@example.com' } });
      }),
    );
    const { dialog, user } = await openRegistration();
    await user.type(within(dialog).getByLabelText('Name'), 'Olena');
    await user.type(within(dialog).getByLabelText('Email'), 'olena@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Registration' }));
    expect(await screen.findByText(toastMessages.signUpSuccess)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Welcome Olena')).toBeInTheDocument();
    expect(body).toEqual({ name: 'Olena', email: 'olena@example.com', password: 'secret123' });
  });

  it.each([
    ['USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'],
    ['USER_ALREADY_EXISTS'],
  ])('%s: toasts "Email in use" and keeps what was typed', async (code) => {
    server.use(http.post(apiUrl('/auth/sign-up/email'), () => HttpResponse.json({ code, message: 'User already exists' }, { status: 422 })));
    const { dialog, user } = await openRegistration();
    await user.type(within(dialog).getByLabelText('Name'), 'Olena');
    await user.type(within(dialog).getByLabelText('Email'), 'olena@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Registration' }));
    expect(await screen.findByText('Email in use')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Olena');
    expect(within(dialog).getByLabelText('Email')).toHaveValue('olena@example.com');
  });

  it('VALIDATION_ERROR with fields: shows the server messages under the fields', async () => {
    server.use(
      http.post(apiUrl('/auth/sign-up/email'), () =>
        HttpResponse.json(
          { error: { code: 'VALIDATION_ERROR', message: 'Invalid request', fields: { email: m.invalidEmail } } },
          { status: 400 },
        ),
      ),
    );
    const { dialog, user } = await openRegistration();
    await user.type(within(dialog).getByLabelText('Name'), 'Olena');
    await user.type(within(dialog).getByLabelText('Email'), 'olena@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret123');
    await user.click(within(dialog).getByRole('button', { name: 'Registration' }));
    expect(await within(dialog).findByText(m.invalidEmail)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('closes on Escape and returns focus to the Registration button', async () => {
    const { user } = await openRegistration();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Registration' })).toHaveFocus();
    expect(document.body.style.overflow).toBe('');
  });
});
