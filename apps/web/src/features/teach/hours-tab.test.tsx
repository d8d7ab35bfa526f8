import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { TeachPreview } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { asTeacher, availability, invalid } from './teach-fixtures';

const preview = (zone: string): TeachPreview => ({
  zone,
  teacherTimeZone: 'Europe/Paris',
  from: '2026-11-28T00:00:00.000Z',
  to: '2026-12-05T00:00:00.000Z',
  slots: [
    { start: '2026-11-30T08:00:00.000Z', date: '2026-11-30', weekday: 'Mon', time: zone === 'Asia/Tokyo' ? '17:00' : '03:00', teacherTime: 'Mon 09:00' },
    { start: '2026-11-30T09:00:00.000Z', date: '2026-11-30', weekday: 'Mon', time: zone === 'Asia/Tokyo' ? '18:00' : '04:00', teacherTime: 'Mon 10:00' },
  ],
});

function hoursServer() {
  const puts: unknown[] = [];
  const zones: string[] = [];
  server.use(
    http.get(apiUrl('/teach/availability'), () => HttpResponse.json(availability)),
    http.get(apiUrl('/teach/preview'), ({ request }) => {
      const zone = new URL(request.url).searchParams.get('zone')!;
      zones.push(zone);
      return HttpResponse.json(preview(zone));
    }),
  );
  return { puts, zones };
}

describe('/teach/hours', () => {
  it('shows the weekly ranges, adds and removes one, and saves them with the zone, notice, horizon and booking mode', async () => {
    const { puts } = hoursServer();
    server.use(
      http.put(apiUrl('/teach/availability'), async ({ request }) => {
        const body = await request.json();
        puts.push(body);
        return HttpResponse.json(availability);
      }),
    );
    const { user } = renderApp('/teach/hours', { preloadedState: asTeacher() });
    const form = await screen.findByRole('form', { name: 'Weekly hours' }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: 'Hours' })).toHaveAttribute('aria-current', 'page');
    const monday = within(form).getByRole('group', { name: 'Monday' });
    expect(within(monday).getByLabelText('Monday, range 2: from')).toHaveDisplayValue('14:00');
    expect(within(form).getByRole('group', { name: 'Wednesday' })).toHaveTextContent('No lessons');
    const save = within(form).getByRole('button', { name: 'Save hours' });
    await waitFor(() => expect(save).toBeEnabled());

    await user.click(within(form).getByRole('button', { name: 'Remove Tuesday 09:00–17:00' }));
    await user.click(within(form).getByRole('button', { name: 'Add a range on Wednesday' }));
    await user.selectOptions(within(form).getByLabelText('Wednesday, range 1: to'), '13');
    await user.clear(within(form).getByLabelText('Minimum notice (hours)'));
    await user.type(within(form).getByLabelText('Minimum notice (hours)'), '24');
    await user.click(within(form).getByLabelText(/It is a request/));
    await user.click(save);
    expect(await within(form).findByRole('status')).toHaveTextContent('Saved.');
    expect(puts).toEqual([
      {
        timeZone: 'Europe/Paris',
        weeklyHours: [[{ from: '09:00', to: '12:00' }, { from: '14:00', to: '17:00' }], [], [{ from: '09:00', to: '13:00' }], [], [], [], []],
        noticeHours: 24,
        horizonDays: 14,
        bookingMode: 'request',
      },
    ]);
  });

  it('checks the ranges first, then shows the server’s 400 at the field it names', async () => {
    let puts = 0;
    hoursServer();
    server.use(
      http.put(apiUrl('/teach/availability'), () => {
        puts += 1;
        return invalid({ 'weeklyHours.0.1.to': 'Ends after a lesson you have' });
      }),
    );
    const { user } = renderApp('/teach/hours', { preloadedState: asTeacher() });
    const form = await screen.findByRole('form', { name: 'Weekly hours' }, { timeout: 10_000 });
    const save = within(form).getByRole('button', { name: 'Save hours' });
    await waitFor(() => expect(save).toBeEnabled());
    // Monday's second range now starts inside the first
    await user.selectOptions(within(form).getByLabelText('Monday, range 2: from'), '11');
    await user.click(save);
    expect(within(form).getByLabelText('Monday, range 2: from')).toHaveAccessibleDescription('Overlaps another range that day');
    expect(puts).toBe(0);
    await user.selectOptions(within(form).getByLabelText('Monday, range 2: from'), '13');
    await user.click(save);
    await waitFor(() => expect(within(form).getByLabelText('Monday, range 2: to')).toHaveAccessibleDescription('Ends after a lesson you have'));
    expect(within(form).getByLabelText('Monday, range 2: from')).not.toHaveAccessibleDescription();
    expect(puts).toBe(1);
  });

  it('lists time off, adds a range with a reason (a 400 at its field), removes one; previews another zone', async () => {
    const { zones } = hoursServer();
    const posted: unknown[] = [];
    const removed: string[] = [];
    server.use(
      http.post(apiUrl('/teach/time-off'), async ({ request }) => {
        const body = (await request.json()) as { endsOn: string };
        posted.push(body);
        if (body.endsOn === '2026-02-01') return invalid({ endsOn: 'Already over' });
        return HttpResponse.json({ id: '10000000-0000-4000-8000-000000000002', reason: '', ...body }, { status: 201 });
      }),
      http.delete(apiUrl('/teach/time-off/:id'), ({ params }) => {
        removed.push(String(params.id));
        return HttpResponse.json(availability.timeOff[0]);
      }),
    );
    const { user } = renderApp('/teach/hours', { preloadedState: asTeacher() });
    const list = await screen.findByRole('list', { name: 'Your time off' }, { timeout: 10_000 });
    expect(within(list).getByText('2026-12-21 – 2027-01-03')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Add time off' });
    const add = within(form).getByRole('button', { name: 'Add time off' });
    await waitFor(() => expect(add).toBeEnabled());
    await user.type(within(form).getByLabelText('First day off'), '2026-01-20');
    await user.type(within(form).getByLabelText('Last day off'), '2026-02-01');
    await user.type(within(form).getByLabelText(/^Reason/), 'Conference');
    await user.click(add);
    await waitFor(() => expect(within(form).getByLabelText('Last day off')).toHaveAccessibleDescription('Already over'));
    await user.clear(within(form).getByLabelText('First day off'));
    await user.clear(within(form).getByLabelText('Last day off'));
    await user.type(within(form).getByLabelText('First day off'), '2026-12-01');
    await user.type(within(form).getByLabelText('Last day off'), '2026-12-05');
    await user.click(add);
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ startsOn: '2026-12-01', endsOn: '2026-12-05', reason: 'Conference' });
    await user.click(within(list).getByRole('button', { name: 'Remove the time off 2026-12-21 – 2027-01-03' }));
    await waitFor(() => expect(removed).toEqual(['10000000-0000-4000-8000-000000000001']));

    const zone = screen.getByRole('combobox', { name: 'A learner in' });
    await user.selectOptions(zone, 'Asia/Tokyo');
    const times = await screen.findByRole('list', { name: 'Free times in Asia/Tokyo' });
    // each time as the learner sees it, with the teacher's own (named for assistive technology)
    const monday = within(times).getByRole('list', { name: 'Mon 2026-11-30' });
    expect(within(monday).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['17:00 yours: Mon 09:00', '18:00 yours: Mon 10:00']);
    expect(zones).toContain('Asia/Tokyo');
  });
});
