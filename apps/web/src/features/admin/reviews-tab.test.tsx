import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { reviewMessages, type ImportedReview, type LessonReview } from '@learnlingo/contract';
import { renderApp } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState } from '../../test/auth-state';

afterEach(() => toast.remove());

function asAdmin() {
  server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf('Ada Admin', 'ada@example.com', 'admin'))));
  return signedInState('Ada Admin', 'ada@example.com', 'admin');
}

const lessonReview: LessonReview = {
  id: '10000000-0000-4000-8000-000000000001',
  bookingId: '00000000-0000-4000-8000-000000000003',
  teacherId: 't000001',
  teacherName: 'Jane Smith',
  reviewerName: 'Ada',
  language: 'French',
  lessonStart: '2026-01-05T10:00:00.000Z',
  rating: 2,
  comment: 'Call me on +44 20 7946 0958.',
  createdAt: '2026-01-05T12:00:00.000Z',
  updatedAt: '2026-01-05T12:00:00.000Z',
  editableUntil: '2026-01-19T12:00:00.000Z',
  reply: null,
  repliedAt: null,
  hidden: null,
};

const imported: ImportedReview = { id: 41, teacherId: 't000001', teacherName: 'Jane Smith', reviewerName: 'Frank', rating: 1, comment: 'Nothing about a lesson.', hidden: null };

describe('Reviews (/admin/reviews)', () => {
  it("lists the lessons' reviews and hides one with a reason; the server's refusal names the field", async () => {
    let current = lessonReview;
    const posts: unknown[] = [];
    server.use(
      http.get(apiUrl('/staff/reviews'), () => HttpResponse.json({ items: [current] })),
      http.post(apiUrl('/staff/reviews/:id/hide'), async ({ request, params }) => {
        const body = (await request.json()) as { reason: string };
        posts.push({ id: params.id, ...body });
        if (body.reason.length > 25) {
          return HttpResponse.json({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request body', fields: { reason: reviewMessages.reasonTooLong } } }, { status: 400 });
        }
        current = { ...current, hidden: { at: '2026-01-06T00:00:00.000Z', reason: body.reason } };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderApp('/admin/reviews', { preloadedState: asAdmin() });
    const list = await screen.findByRole('list', { name: 'Reviews of lessons' });
    const item = within(list).getByRole('listitem');
    expect(within(item).getByText('About Jane Smith')).toBeInTheDocument();
    expect(within(item).getByText('Call me on +44 20 7946 0958.')).toBeInTheDocument();

    // no reason: refused in the page, nothing sent
    await user.click(within(item).getByRole('button', { name: 'Hide review' }));
    const reason = within(item).getByRole('textbox', { name: 'Reason for hiding' });
    expect(reason).toHaveAccessibleDescription(reviewMessages.reasonRequired);
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(posts).toEqual([]);

    // the server's 400 names the field: shown under it
    await user.type(reason, 'A reason that is far too long');
    await user.click(within(item).getByRole('button', { name: 'Hide review' }));
    await expect.poll(() => reason.getAttribute('aria-describedby') !== null && within(item).queryByText(reviewMessages.reasonTooLong) !== null).toBe(true);
    expect(reason).toHaveAccessibleDescription(reviewMessages.reasonTooLong);

    await user.clear(reason);
    await user.type(reason, 'Shares a phone number');
    await user.click(within(item).getByRole('button', { name: 'Hide review' }));
    expect(await within(list).findByText(`${reviewMessages.hiddenBySchool}: Shares a phone number`)).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Hide review' })).not.toBeInTheDocument();
    expect(posts.at(-1)).toEqual({ id: lessonReview.id, reason: 'Shares a phone number' });
  });

  it("shows one teacher's imported reviews by id (the address says whose) and hides one", async () => {
    let current = imported;
    const asked: string[] = [];
    const posts: unknown[] = [];
    server.use(
      http.get(apiUrl('/staff/reviews'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/staff/teachers/:id/imported-reviews'), ({ params }) => {
        asked.push(String(params.id));
        if (params.id !== 't000001') return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'No teacher' } }, { status: 404 });
        return HttpResponse.json({ items: [current] });
      }),
      http.post(apiUrl('/staff/imported-reviews/:id/hide'), async ({ request, params }) => {
        const body = (await request.json()) as { reason: string };
        posts.push({ id: params.id, ...body });
        current = { ...current, hidden: { at: '2026-01-06T00:00:00.000Z', reason: body.reason } };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderApp('/admin/reviews', { preloadedState: asAdmin() });
    expect(await screen.findByText('No reviews of lessons yet.')).toBeInTheDocument();
    const teacher = screen.getByRole('textbox', { name: 'Teacher id' });

    await user.type(teacher, 't999999');
    await user.click(screen.getByRole('button', { name: 'Show reviews' }));
    await expect.poll(() => window.location.search).toBe('?teacher=t999999');
    expect(await screen.findByText('No teacher with this id')).toBeInTheDocument();

    const field = screen.getByRole('textbox', { name: 'Teacher id' });
    await user.clear(field);
    await user.type(field, 't000001');
    await user.click(screen.getByRole('button', { name: 'Show reviews' }));
    await expect.poll(() => window.location.search).toBe('?teacher=t000001');
    const list = await screen.findByRole('list', { name: 'Imported reviews of Jane Smith' });
    expect(within(list).getByText('Nothing about a lesson.')).toBeInTheDocument();
    expect(within(list).getByText(reviewMessages.importedMark)).toBeInTheDocument();
    await user.type(within(list).getByRole('textbox', { name: 'Reason for hiding' }), 'Not about a lesson');
    await user.click(within(list).getByRole('button', { name: 'Hide review' }));
    expect(await within(list).findByText(`${reviewMessages.hiddenBySchool}: Not about a lesson`)).toBeInTheDocument();
    expect(posts).toEqual([{ id: '41', reason: 'Not about a lesson' }]);
    expect(asked).toEqual(['t999999', 't000001', 't000001']);
  });
});
