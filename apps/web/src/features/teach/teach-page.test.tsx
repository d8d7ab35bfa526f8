import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import type { LessonReview, Teacher } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { signedInSession, signedInState } from '../favorites/testing/session';
import { catalogueHandlers } from '../teachers/testing/catalogue-handlers';
import { loadTeachers } from '../teachers/testing/teachers-fixture';
import { profile } from './teach-fixtures';

afterEach(() => toast.remove());

const review: LessonReview = {
  id: '10000000-0000-4000-8000-000000000001',
  bookingId: '00000000-0000-4000-8000-000000000003',
  teacherId: 't000001',
  teacherName: 'Jane Smith',
  reviewerName: 'Ada',
  language: 'French',
  lessonStart: '2026-01-05T10:00:00.000Z',
  rating: 4,
  comment: 'Clear and kind.',
  createdAt: '2026-01-05T12:00:00.000Z',
  updatedAt: '2026-01-05T12:00:00.000Z',
  editableUntil: '2026-01-19T12:00:00.000Z',
  reply: null,
  repliedAt: null,
  hidden: null,
};

describe('/teach/reviews', () => {
  it("lists the reviews about the teacher and publishes the one answer; then the form is gone", async () => {
    let current = review;
    const replies: unknown[] = [];
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/teach/profile'), () => HttpResponse.json(profile)),
      http.get(apiUrl('/teach/reviews'), () => HttpResponse.json({ items: [current] })),
      http.post(apiUrl('/teach/reviews/:id/reply'), async ({ request }) => {
        replies.push(await request.json());
        current = { ...review, reply: 'Thank you, Ada!', repliedAt: '2026-01-06T00:00:00.000Z' };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderApp('/teach/reviews', { preloadedState: signedInState() });
    const list = await screen.findByRole('list', { name: 'Reviews about you' });
    expect(screen.getByRole('link', { name: 'Reviews' })).toHaveAttribute('aria-current', 'page');
    expect(within(list).getByText('Clear and kind.')).toBeInTheDocument();
    await user.type(within(list).getByLabelText('Your answer (public, once)'), 'Thank you, Ada!');
    await user.click(within(list).getByRole('button', { name: 'Publish answer' }));
    expect(await within(list).findByText('Thank you, Ada!')).toBeInTheDocument();
    expect(replies).toEqual([{ reply: 'Thank you, Ada!' }]);
    expect(within(list).queryByRole('button', { name: 'Publish answer' })).not.toBeInTheDocument();
  });

  it('anyone but a teacher (the API says 403) gets the not-found page', async () => {
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/teach/profile'), () => HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'no' } }, { status: 403 })),
      http.get(apiUrl('/teach/reviews'), () => HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'no' } }, { status: 403 })),
    );
    renderApp('/teach/reviews', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});

describe("the teacher page's reviews", () => {
  it('are paged by the server, with links for the order', async () => {
    const teacher = loadTeachers()[0] as Teacher;
    server.use(...catalogueHandlers().handlers);
    renderApp(`/teachers/${teacher.id}`);
    const section = await screen.findByRole('region', { name: /^Reviews/ });
    // (the count comes with the reviews' page, asked for once the teacher is known)
    expect(await within(section).findByRole('heading', { name: `Reviews (${teacher.reviews.length})` })).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Lowest rating first' })).toHaveAttribute('href', `/teachers/${teacher.id}?reviews=lowest#reviews`);
    expect(within(section).getByRole('link', { name: 'Newest first' })).toHaveAttribute('aria-current', 'true');
    expect(within(section).getAllByText('Imported review')).toHaveLength(teacher.reviews.length);
  });
});
