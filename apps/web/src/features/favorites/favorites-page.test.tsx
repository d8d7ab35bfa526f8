import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { catalogueOrder, loadTeachers } from '../teachers/testing/teachers-fixture';
import { signedInSession, signedInState } from './testing/session';

const [first, second] = catalogueOrder(loadTeachers()) as [Teacher, Teacher];

function setup(items: Teacher[]) {
  server.use(
    signedInSession,
    http.get(apiUrl('/favorites'), () => HttpResponse.json({ items })),
    http.delete(apiUrl('/favorites/:id'), ({ params }) => HttpResponse.json({ teacherId: params.id, favorite: false })),
  );
  return renderApp('/favorites', { preloadedState: signedInState() });
}

describe('/favorites', () => {
  it("lists the signed-in user's favourites with the same cards", async () => {
    const { user } = setup([first, second]);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    const card = screen.getByRole('article', { name: `${first.name} ${first.surname}` });
    expect(within(card).getByRole('button', { name: 'Remove from favorites' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(card).getByRole('link', { name: `${first.name} ${first.surname}` })).toHaveAttribute(
      'href',
      `/teachers/${first.id}`,
    );
    await user.click(within(card).getByRole('button', { name: 'Remove from favorites' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(1));
  });

  it('shows a friendly empty state with a link to the catalogue', async () => {
    setup([]);
    expect(await screen.findByRole('heading', { name: 'No favorite teachers yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find a teacher' })).toHaveAttribute('href', '/teachers');
  });

  it('sends a visitor to the home page', async () => {
    const { router } = renderApp('/favorites');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
