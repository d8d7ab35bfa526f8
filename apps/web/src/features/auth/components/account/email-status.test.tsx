import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { accountMessages } from '@learnlingo/contract';
import { renderApp } from '../../../../test/render';
import { apiUrl, server } from '../../../../test/msw-server';
import { sessionOf, signedInState } from '../../../../test/auth-state';

afterEach(() => toast.remove());

/** /account at `url` for a signed-in user whose address is (or is not) confirmed. */
function openAccount(url: string, emailVerified: boolean) {
  server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json({ ...sessionOf(), user: { ...sessionOf().user, emailVerified } })));
  return renderApp(url, { preloadedState: signedInState() });
}

describe('/account: the e-mail address confirmed or not', () => {
  it('back from the confirmation link: says it worked, and the address reads as confirmed', async () => {
    openAccount('/account?email=confirmed', true);
    expect(await screen.findByText(accountMessages.emailConfirmed)).toHaveAttribute('role', 'status');
    expect(screen.getByText('Confirmed')).toBeInTheDocument();
    expect(screen.queryByText(/Please confirm your email/)).not.toBeInTheDocument();
  });

  it('on a later visit the address reads as confirmed, with no message about the link', async () => {
    openAccount('/account', true);
    expect(await screen.findByText('Confirmed')).toBeInTheDocument();
    expect(screen.queryByText(accountMessages.emailConfirmed)).not.toBeInTheDocument();
  });

  it('a link that did not work says so, and offers a new one; the address reads as not confirmed', async () => {
    openAccount('/account?email=confirmed&error=TOKEN_EXPIRED', false);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(accountMessages.confirmationLinkInvalid);
    expect(within(alert).getByRole('button', { name: 'Send the link again' })).toBeInTheDocument();
    expect(screen.getByText('Not confirmed yet')).toBeInTheDocument();
    expect(screen.queryByText(accountMessages.emailConfirmed)).not.toBeInTheDocument();
  });
});
