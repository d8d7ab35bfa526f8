import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import toast from 'react-hot-toast';
import type { Teacher } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { catalogueHandlers } from '../teachers/testing/catalogue-handlers';
import { catalogueOrder, loadTeachers } from '../teachers/testing/teachers-fixture';
import { ann } from './testing/session';

const [first, second] = catalogueOrder(loadTeachers()) as [Teacher, Teacher];
const card = (t: Teacher) => screen.getByRole('article', { name: `${t.name} ${t.surname}` });
const heart = (t: Teacher) => within(card(t)).getByRole('button', { name: /favorites$/ });

afterEach(() => toast.remove());

/** A server where Ann can sign in; it keeps her favourites (newest first, like the real one). */
function setup() {
  let signedIn = false;
  const list: Teacher[] = [];
  const puts: string[] = [];
  server.use(
    ...catalogueHandlers().handlers,
    http.get(apiUrl('/auth/get-session'), () =>
      HttpResponse.json(signedIn ? { user: ann, session: { id: 's1', userId: ann.id, expiresAt: '2099-01-01' } } : null),
    ),
    http.post(apiUrl('/auth/sign-in/email'), () => {
      signedIn = true;
      return HttpResponse.json({ redirect: false, token: 't', user: ann });
    }),
    // the favourites read that signing in starts answers before the add lands
    http.get(apiUrl('/favorites'), () =>
      signedIn ? HttpResponse.json({ items: [...list] }) : HttpResponse.json({ error: { code: 'UNAUTHORIZED', message: 'x' } }, { status: 401 }),
    ),
    http.put(apiUrl('/favorites/:id'), async ({ params }) => {
      await delay(80);
      const teacher = [first, second].find((t) => t.id === params.id);
      if (teacher && !list.includes(teacher)) list.unshift(teacher);
      puts.push(String(params.id));
      return HttpResponse.json({ teacherId: params.id, favorite: true });
    }),
  );
  return { puts, view: renderApp('/teachers') };
}

async function signInFromTheModal(user: ReturnType<typeof renderApp>['user']) {
  const dialog = await screen.findByRole('dialog', { name: 'Login' });
  await user.type(await within(dialog).findByLabelText('Email'), ann.email);
  await user.type(within(dialog).getByLabelText('Password'), 'secret-pass1');
  await user.click(within(dialog).getByRole('button', { name: 'Log In' }));
}

describe('the heart that asked a visitor to sign in', () => {
  it('adds its teacher once they have signed in, and the heart stays filled', async () => {
    const { puts, view } = setup();
    await screen.findAllByRole('article');
    await view.user.click(heart(second));
    await signInFromTheModal(view.user);
    expect((await screen.findAllByText('Teacher was added')).length).toBeGreaterThan(0);
    expect(puts).toEqual([second.id]);
    await waitFor(() => expect(heart(second)).toHaveAttribute('aria-pressed', 'true'));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the server's list is read again
    expect(heart(second)).toHaveAttribute('aria-pressed', 'true');
    expect(heart(first)).toHaveAttribute('aria-pressed', 'false');
    expect(view.store.getState().pendingFavorite?.teacher).toBeNull();
  });

  it('closing the modal forgets it: a later sign-in adds nothing', async () => {
    const { puts, view } = setup();
    await screen.findAllByRole('article');
    await view.user.click(heart(second));
    await screen.findByRole('dialog', { name: 'Login' });
    await view.user.keyboard('{Escape}');
    await view.user.click(screen.getByRole('link', { name: 'Log in' }));
    await signInFromTheModal(view.user);
    expect(await screen.findByText('Welcome Ann Lee')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(puts).toEqual([]);
    expect(heart(second)).toHaveAttribute('aria-pressed', 'false');
  });
});
