import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { reviewMessages, type Lesson, type LessonReviewState } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { signedInSession, signedInState } from '../favorites/testing/session';

afterEach(() => toast.remove());

const past: Lesson = {
  id: '00000000-0000-4000-8000-000000000003',
  teacher: { id: 't000001', name: 'Jane', surname: 'Smith', avatarUrl: null, timeZone: 'Europe/Paris' },
  language: 'French',
  start: '2026-01-05T10:00:00.000Z',
  end: '2026-01-05T11:00:00.000Z',
  status: 'past',
  cancellable: false,
  reason: 'Living abroad',
  createdAt: '2026-01-01T00:00:00.000Z',
  cancelledAt: null,
  confirmBy: null,
};
const open: LessonReviewState = {
  bookingId: past.id,
  state: 'open',
  review: null,
  editable: false,
  canReportTeacherAbsent: true,
  teacherAbsent: false,
  learnerAbsent: false,
};

describe('rating a past lesson on My lessons', () => {
  it('asks for a rating first, sends 1–5 and the comment as typed, then shows the review as plain text', async () => {
    const posted: unknown[] = [];
    let state = open;
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/bookings'), () => HttpResponse.json({ items: [past] })),
      http.get(apiUrl('/bookings/reviews'), () => HttpResponse.json({ items: [state] })),
      http.post(apiUrl('/bookings/:id/review'), async ({ request }) => {
        const body = (await request.json()) as { rating: number; comment: string };
        posted.push(body);
        state = {
          ...open,
          state: 'reviewed',
          editable: true,
          canReportTeacherAbsent: false,
          review: {
            id: '10000000-0000-4000-8000-000000000001',
            bookingId: past.id,
            teacherId: 't000001',
            teacherName: 'Jane Smith',
            reviewerName: 'Ada',
            language: 'French',
            lessonStart: past.start!,
            rating: body.rating,
            comment: body.comment,
            createdAt: '2026-01-05T12:00:00.000Z',
            updatedAt: '2026-01-05T12:00:00.000Z',
            editableUntil: '2026-01-19T12:00:00.000Z',
            reply: null,
            repliedAt: null,
            hidden: null,
          },
        };
        return HttpResponse.json(state);
      }),
    );
    const { user } = renderApp('/lessons', { preloadedState: signedInState() });
    const form = await screen.findByRole('region', { name: 'Rate this lesson' });
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    expect(await within(form).findByText(reviewMessages.ratingRequired)).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.click(within(form).getByRole('radio', { name: '5 out of 5' }));
    await user.type(within(form).getByLabelText('Comment (optional)'), '<b>Great</b> lesson');
    await user.click(within(form).getByRole('button', { name: 'Send review' }));
    const mine = await screen.findByRole('region', { name: 'Your review' });
    expect(posted).toEqual([{ rating: 5, comment: '<b>Great</b> lesson' }]);
    // the markup typed is text, never HTML
    expect(within(mine).getByText('<b>Great</b> lesson')).toBeInTheDocument();
    expect(within(mine).getByText(reviewMessages.lessonMark)).toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: 'Change review' })).toBeInTheDocument();
  });

  it('a hidden review says so and why, and cannot be changed', async () => {
    const hidden: LessonReviewState = {
      ...open,
      state: 'reviewed',
      canReportTeacherAbsent: false,
      review: {
        id: '10000000-0000-4000-8000-000000000002',
        bookingId: past.id,
        teacherId: 't000001',
        teacherName: 'Jane Smith',
        reviewerName: 'Ada',
        language: 'French',
        lessonStart: past.start!,
        rating: 1,
        comment: 'Call me on 555',
        createdAt: '2026-01-05T12:00:00.000Z',
        updatedAt: '2026-01-05T12:00:00.000Z',
        editableUntil: '2026-01-19T12:00:00.000Z',
        reply: null,
        repliedAt: null,
        hidden: { at: '2026-01-06T12:00:00.000Z', reason: 'Shares a phone number' },
      },
    };
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/bookings'), () => HttpResponse.json({ items: [past] })),
      http.get(apiUrl('/bookings/reviews'), () => HttpResponse.json({ items: [hidden] })),
    );
    renderApp('/lessons', { preloadedState: signedInState() });
    const mine = await screen.findByRole('region', { name: 'Your review' });
    expect(within(mine).getByText(`${reviewMessages.hiddenBySchool}: Shares a phone number`)).toBeInTheDocument();
    expect(within(mine).queryByRole('button', { name: 'Change review' })).not.toBeInTheDocument();
  });
});
