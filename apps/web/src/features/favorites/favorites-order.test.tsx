import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import type { Teacher } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { catalogueHandlers } from '../teachers/testing/catalogue-handlers';
import { catalogueOrder, loadTeachers } from '../teachers/testing/teachers-fixture';
import { signedInSession, signedInState } from './testing/session';

const [first, second, third] = catalogueOrder(loadTeachers()) as [Teacher, Teacher, Teacher];
const card = (t: Teacher) => screen.getByRole('article', { name: `${t.name} ${t.surname}` });

afterEach(() => toast.remove());

describe('/favorites keeps one order: newest first', () => {
  it('a heart added here goes first, as the server lists it; a refused removal goes back where it was', async () => {
    const list = [second, first]; // the server's order: newest first
    server.use(
      ...catalogueHandlers().handlers,
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: list })),
      http.put(apiUrl('/favorites/:id'), ({ params }) => {
        const teacher = [first, second, third].find((t) => t.id === params.id)!;
        list.unshift(teacher);
        return HttpResponse.json({ teacherId: teacher.id, favorite: true });
      }),
      http.delete(apiUrl('/favorites/:id'), () => HttpResponse.error()),
    );
    const { user, store } = renderApp('/teachers', { preloadedState: signedInState() });
    const ids = () => store.getState().teachers.favorites.map((t) => t.id);
    await waitFor(() => expect(ids()).toEqual([second.id, first.id]));

    await user.click(within(card(third)).getByRole('button', { name: 'Add to favorites' }));
    expect(ids()).toEqual([third.id, second.id, first.id]);
    expect(list.map((t) => t.id)).toEqual(ids());

    await user.click(within(card(second)).getByRole('button', { name: 'Remove from favorites' }));
    expect((await screen.findAllByText('Could not update your favorites. Please try again.')).length).toBeGreaterThan(0);
    expect(ids()).toEqual([third.id, second.id, first.id]);
  });
});
