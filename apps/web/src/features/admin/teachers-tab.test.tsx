import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { AdminBookingPage, AdminTeacherPage } from '@learnlingo/contract';
import { renderApp } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState } from '../../test/auth-state';

/** Signed in as an admin (the session the app checks at start, and the state it starts from). */
function asAdmin() {
  server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf('Ann Lee', 'ann@example.com', 'admin'))));
  return signedInState('Ann Lee', 'ann@example.com', 'admin');
}

const page = (items: AdminTeacherPage['items'], total = items.length, pageNo = 1): AdminTeacherPage => ({ items, total, page: pageNo, pageSize: 20 });
const quilla = { id: 'cQuilla', name: 'Quilla', surname: 'Zephyrine', languages: ['Quenya'], price_per_hour: 31, rating: 0, status: 'draft' as const, lessonsBooked: 2 };

describe('Teachers tab', () => {
  it('shows the server’s page and searches by name through the URL', async () => {
    const asked: string[] = [];
    server.use(
      http.get(apiUrl('/staff/teachers'), ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(page([quilla], 41));
      }),
    );
    const { user } = renderApp('/admin/teachers', { preloadedState: asAdmin() });
    const row = (await screen.findByRole('link', { name: 'Quilla Zephyrine' })).closest('tr')!;
    expect(within(row).getByText('Draft')).toBeInTheDocument();
    expect(within(row).getByText('$31')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3 · 41 in all')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/admin/teachers?page=2');

    await user.type(screen.getByRole('searchbox', { name: 'Search by name' }), 'zeph');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'draft');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(window.location.search).toBe('?q=zeph&status=draft'));
    await waitFor(() => expect(asked).toContain('?q=zeph&status=draft'));
  });

  it('Add teacher: checks the fields first, then puts the server’s 400 next to the field it names', async () => {
    let posted: unknown;
    server.use(
      http.post(apiUrl('/staff/teachers'), async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request body', fields: { weeklyHours: 'Give the teacher’s weekly hours for this time zone' } } }, { status: 400 });
      }),
    );
    const { user } = renderApp('/admin/teachers/new', { preloadedState: asAdmin() });
    const form = await screen.findByRole('form', { name: 'Add teacher' });
    const submit = within(form).getByRole('button', { name: 'Add teacher' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(within(form).getByLabelText('First name')).toHaveAccessibleDescription('Required');
    expect(within(form).getByRole('group', { name: 'Levels' })).toHaveAccessibleDescription('At least one level');
    expect(posted).toBeUndefined();

    await user.type(within(form).getByLabelText('First name'), 'Quilla');
    await user.type(within(form).getByLabelText('Last name'), 'Zephyrine');
    await user.type(within(form).getByLabelText('Languages (comma-separated)'), 'Quenya, English');
    await user.type(within(form).getByLabelText('Price per hour ($)'), '31');
    await user.click(within(form).getByRole('checkbox', { name: 'A1 Beginner' }));
    await user.type(within(form).getByLabelText('Time zone'), 'Europe/Dublin');
    await user.type(within(form).getByLabelText('Weekly hours'), 'Mon-Fri 09:00-17:00');
    await user.click(submit);
    expect(await within(form).findByLabelText('Weekly hours')).toHaveAccessibleDescription('Give the teacher’s weekly hours for this time zone');
    expect(posted).toMatchObject({ name: 'Quilla', languages: ['Quenya', 'English'], levels: ['A1 Beginner'], price_per_hour: 31, status: 'draft', timeZone: 'Europe/Dublin' });
  });
});

describe('Bookings tab', () => {
  it('cancels a lesson with a reason', async () => {
    const lesson: AdminBookingPage['items'][number] = {
      id: '00000000-0000-4000-8000-000000000001',
      teacher: { id: 't000001', name: 'Jane', surname: 'Smith' },
      learner: { fullName: 'Lee Learner', email: 'lee@example.com' },
      language: 'French',
      start: '2026-12-01T09:00:00.000Z',
      status: 'upcoming',
      createdAt: '2026-11-20T09:00:00.000Z',
      cancelledAt: null,
    };
    let reason: unknown;
    server.use(
      http.get(apiUrl('/staff/bookings'), () => HttpResponse.json({ items: [lesson], total: 1, page: 1, pageSize: 20 })),
      http.post(apiUrl(`/staff/bookings/${lesson.id}/cancel`), async ({ request }) => {
        reason = ((await request.json()) as { reason: string }).reason;
        return HttpResponse.json({ ...lesson, status: 'cancelled', cancelledAt: '2026-11-27T09:00:00.000Z' });
      }),
    );
    const { user } = renderApp('/admin/bookings', { preloadedState: asAdmin() });
    const open = await screen.findByRole('button', { name: 'Cancel the lesson of Lee Learner' });
    await waitFor(() => expect(open).toBeEnabled());
    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Cancel lesson' }));
    expect(screen.getByLabelText('Reason (sent to both)')).toHaveAccessibleDescription('Say why');
    await user.type(screen.getByLabelText('Reason (sent to both)'), 'The teacher is ill');
    await user.click(screen.getByRole('button', { name: 'Cancel lesson' }));
    await waitFor(() => expect(reason).toBe('The teacher is ill'));
  });
});
