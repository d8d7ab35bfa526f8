import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { lessonMessages, type Lesson } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { signedInSession, signedInState } from '../favorites/testing/session';

afterEach(() => toast.remove());

const teacher = { id: 't000001', name: 'Jane', surname: 'Smith', avatarUrl: null, timeZone: 'Europe/Paris' };
const lesson = (patch: Partial<Lesson>): Lesson => ({
  id: '00000000-0000-4000-8000-000000000001',
  teacher,
  language: 'French',
  start: '2099-11-03T14:00:00.000Z',
  end: '2099-11-03T15:00:00.000Z',
  status: 'upcoming',
  cancellable: true,
  reason: 'Living abroad',
  createdAt: '2026-10-01T00:00:00.000Z',
  cancelledAt: null,
  confirmBy: null,
  ...patch,
});

const upcoming = lesson({});
const soon = lesson({ id: '00000000-0000-4000-8000-000000000002', cancellable: false, language: 'German' });
const past = lesson({ id: '00000000-0000-4000-8000-000000000003', status: 'past', cancellable: false, start: '2026-01-05T10:00:00.000Z', end: '2026-01-05T11:00:00.000Z' });
const old = lesson({ id: '00000000-0000-4000-8000-000000000004', status: 'unscheduled', start: null, end: null, language: null });

describe('My lessons (/lessons)', () => {
  it('lists upcoming and past lessons with teacher, language, time, calendar link; cancels after confirming', async () => {
    let items = [upcoming, soon, old, past];
    const cancels: string[] = [];
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/bookings'), () => HttpResponse.json({ items })),
      http.post(apiUrl('/bookings/:id/cancel'), ({ params }) => {
        cancels.push(String(params.id));
        const cancelled = { ...upcoming, status: 'cancelled' as const, cancellable: false, cancelledAt: '2026-10-02T00:00:00.000Z' };
        items = [soon, old, past, cancelled];
        return HttpResponse.json(cancelled);
      }),
    );
    const { user } = renderApp('/lessons', { preloadedState: signedInState() });
    expect(await screen.findByRole('heading', { level: 1, name: 'My lessons' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My lessons' })).toHaveAttribute('aria-current', 'page');
    const upcomingList = await screen.findByRole('region', { name: 'Upcoming' });
    const cards = within(upcomingList).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual(['French lesson with Jane Smith', 'German lesson with Jane Smith', 'Trial lesson with Jane Smith']);
    expect(within(cards[0]!).getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', `/api/bookings/${upcoming.id}/calendar.ics`);
    // "14:00–15:00" is one unit that never breaks across lines
    expect(within(cards[0]!).getByText(/^\d\d:00–\d\d:00$/)).toHaveClass('nowrap');
    expect(within(cards[1]!).getByText(/less than 12 hours to go/)).toBeInTheDocument();
    expect(within(cards[1]!).queryByRole('button', { name: 'Cancel lesson' })).not.toBeInTheDocument();
    expect(within(cards[2]!).getAllByText('Time to be agreed').length).toBeGreaterThan(0);
    expect(within(cards[2]!).queryByRole('link', { name: 'Add to calendar' })).not.toBeInTheDocument();
    const pastList = screen.getByRole('region', { name: 'Past' });
    expect(within(pastList).getByText(/January 2026/)).toBeInTheDocument();

    await user.click(within(cards[0]!).getByRole('button', { name: 'Cancel lesson' }));
    await user.click(within(cards[0]!).getByRole('button', { name: 'Yes, cancel it' }));
    expect((await screen.findAllByText('Your lesson was cancelled')).length).toBeGreaterThan(0);
    expect(cancels).toEqual([upcoming.id]);
    // still ahead: it stays among the upcoming ones, marked cancelled, and is not in Past
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Upcoming' })).getAllByRole('article')).toHaveLength(3));
    const cancelledCard = within(screen.getByRole('region', { name: 'Upcoming' })).getAllByRole('article')[1]!;
    expect(cancelledCard).toHaveAccessibleName('French lesson with Jane Smith');
    expect(within(cancelledCard).getByText('Cancelled')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Past' })).getAllByRole('article')).toHaveLength(1);
  });

  it('says when cancelling is too late', async () => {
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/bookings'), () => HttpResponse.json({ items: [upcoming] })),
      http.post(apiUrl('/bookings/:id/cancel'), () =>
        HttpResponse.json({ error: { code: 'CANCEL_TOO_LATE', message: 'late' } }, { status: 409 }),
      ),
    );
    const { user } = renderApp('/lessons', { preloadedState: signedInState() });
    await user.click(await screen.findByRole('button', { name: 'Cancel lesson' }));
    await user.click(screen.getByRole('button', { name: 'Yes, cancel it' }));
    expect((await screen.findAllByText('A lesson can be cancelled only up to 12 hours before it starts.')).length).toBeGreaterThan(0);
  });

  it("a request (decision 117): waiting for the teacher until the answer, withdrawn at any time; then declined with the reason, or expired; the school's cut-off named", async () => {
    const requested = lesson({ status: 'requested', answerBy: '2099-11-02T14:00:00.000Z', language: 'Spanish' });
    const declined = lesson({ id: '00000000-0000-4000-8000-000000000005', status: 'declined', cancellable: false, cancelledBy: 'declined', cancelReason: 'Away that week', start: '2099-11-04T14:00:00.000Z', end: '2099-11-04T15:00:00.000Z' });
    const expired = lesson({ id: '00000000-0000-4000-8000-000000000006', status: 'expired', cancellable: false, cancelledBy: 'expired', language: 'Polish', start: '2099-11-05T14:00:00.000Z', end: '2099-11-05T15:00:00.000Z' });
    const byTeacher = lesson({ id: '00000000-0000-4000-8000-000000000007', status: 'cancelled', cancellable: false, cancelledBy: 'teacher', cancelReason: 'Ill', language: 'Czech', start: '2099-11-06T14:00:00.000Z', end: '2099-11-06T15:00:00.000Z' });
    const late = lesson({ id: '00000000-0000-4000-8000-000000000008', cancellable: false, cancelCutoffHours: 24, language: 'German', start: '2099-11-07T14:00:00.000Z', end: '2099-11-07T15:00:00.000Z' });
    let items: Lesson[] = [requested, declined, expired, byTeacher, late];
    server.use(
      signedInSession,
      http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
      http.get(apiUrl('/bookings'), () => HttpResponse.json({ items })),
      http.post(apiUrl('/bookings/:id/cancel'), () => {
        const withdrawn = { ...requested, status: 'cancelled' as const, cancellable: false, cancelledBy: 'learner' as const, answerBy: null };
        items = [withdrawn, declined, expired, byTeacher, late];
        return HttpResponse.json(withdrawn);
      }),
    );
    const { user } = renderApp('/lessons', { preloadedState: signedInState() });
    const card = await screen.findByRole('article', { name: 'Spanish lesson with Jane Smith' });
    expect(within(card).getByText('Waiting for the teacher')).toBeInTheDocument();
    expect(within(card).getByText(/^Jane answers your request by \d\d:\d\d\. Until then the time is kept for you/)).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: 'Add to calendar' })).not.toBeInTheDocument();
    const declinedCard = screen.getByRole('article', { name: 'French lesson with Jane Smith' });
    expect(within(declinedCard).getByText('Declined')).toBeInTheDocument();
    expect(within(declinedCard).getByText(/Their reason: Away that week$/)).toBeInTheDocument();
    const expiredCard = screen.getByRole('article', { name: 'Polish lesson with Jane Smith' });
    expect(within(expiredCard).getByText('Expired')).toBeInTheDocument();
    expect(within(expiredCard).getByText(/^The teacher did not answer in time/)).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Czech lesson with Jane Smith' })).getByText('Cancelled by the teacher. Their reason: Ill')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'German lesson with Jane Smith' })).getByText('Can no longer be cancelled (less than 24 hours to go)')).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: 'Withdraw request' }));
    await user.click(within(card).getByRole('button', { name: 'Yes, withdraw it' }));
    expect((await screen.findAllByText('Your request was withdrawn')).length).toBeGreaterThan(0);
  });

  it('sends a visitor to /', async () => {
    renderApp('/lessons');
    await waitFor(() => expect(window.location.pathname).toBe('/'));
  });
});

describe('a booking by its private link (/bookings/:token)', () => {
  const token = 'b'.repeat(43);
  it('shows the booking and cancels it', async () => {
    let current = upcoming;
    server.use(
      http.get(apiUrl(`/bookings/token/${token}`), () => HttpResponse.json(current)),
      http.post(apiUrl(`/bookings/token/${token}/cancel`), () => {
        current = { ...upcoming, status: 'cancelled', cancellable: false, cancelledAt: '2026-10-02T00:00:00.000Z' };
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderApp(`/bookings/${token}`);
    const card = await screen.findByRole('article', { name: 'French lesson with Jane Smith' });
    expect(within(card).getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', `/api/bookings/token/${token}/calendar.ics`);
    await user.click(within(card).getByRole('button', { name: 'Cancel lesson' }));
    await user.click(within(card).getByRole('button', { name: 'Yes, cancel it' }));
    expect(await within(card).findByText('Cancelled')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Cancel lesson' })).not.toBeInTheDocument();
  });

  it('a pending booking: says it waits for confirmation, confirms with "Confirm lesson", then it is upcoming with its calendar file', async () => {
    const pending = { ...upcoming, status: 'pending' as const, confirmBy: '2099-11-01T12:30:00.000Z' };
    let current: Lesson = pending;
    server.use(
      http.get(apiUrl(`/bookings/token/${token}`), () => HttpResponse.json(current)),
      http.post(apiUrl(`/bookings/token/${token}/confirm`), () => {
        current = upcoming;
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderApp(`/bookings/${token}`);
    const card = await screen.findByRole('article', { name: 'French lesson with Jane Smith' });
    expect(within(card).getByText('Waiting for your confirmation')).toBeInTheDocument();
    expect(within(card).getByText(/^Confirm it by \d\d:\d\d, or the time becomes free for others again\.$/)).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: 'Add to calendar' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Confirm lesson' }));
    expect(await within(card).findByText('Upcoming')).toBeInTheDocument();
    expect(await screen.findByText('Your lesson is confirmed')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Add to calendar' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Confirm lesson' })).not.toBeInTheDocument();
  });

  it("a visitor's request: confirming its e-mail sends it to the teacher, and the page says it waits for them", async () => {
    const pending = { ...upcoming, status: 'pending' as const, confirmBy: '2099-11-01T12:30:00.000Z' };
    const requested = { ...upcoming, status: 'requested' as const, cancellable: true, answerBy: '2099-11-02T12:30:00.000Z' };
    let current: Lesson = pending;
    server.use(
      http.get(apiUrl(`/bookings/token/${token}`), () => HttpResponse.json(current)),
      http.post(apiUrl(`/bookings/token/${token}/confirm`), () => {
        current = requested;
        return HttpResponse.json(current);
      }),
    );
    const { user } = renderApp(`/bookings/${token}`);
    const card = await screen.findByRole('article', { name: 'French lesson with Jane Smith' });
    await user.click(within(card).getByRole('button', { name: 'Confirm lesson' }));
    expect(await within(card).findByText('Waiting for the teacher')).toBeInTheDocument();
    expect(await screen.findByText('Your request is sent to the teacher')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Withdraw request' })).toBeInTheDocument();
  });

  it('a hold confirmed too late: says the time is free again', async () => {
    const pending = { ...upcoming, status: 'pending' as const, confirmBy: '2099-11-01T12:30:00.000Z' };
    server.use(
      http.get(apiUrl(`/bookings/token/${token}`), () => HttpResponse.json(pending)),
      http.post(apiUrl(`/bookings/token/${token}/confirm`), () =>
        HttpResponse.json({ error: { code: 'BOOKING_EXPIRED', message: 'x' } }, { status: 410 }),
      ),
    );
    const { user } = renderApp(`/bookings/${token}`);
    const card = await screen.findByRole('article', { name: 'French lesson with Jane Smith' });
    await user.click(within(card).getByRole('button', { name: 'Confirm lesson' }));
    expect(await screen.findByText(lessonMessages.holdExpired)).toBeInTheDocument();
  });

  it('says when the link does not work', async () => {
    server.use(http.get(apiUrl(`/bookings/token/${token}`), () => HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'x' } }, { status: 404 })));
    renderApp(`/bookings/${token}`);
    expect(await screen.findByRole('heading', { name: 'This booking link does not work' })).toBeInTheDocument();
  });
});
