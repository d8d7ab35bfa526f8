import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import type { BookingCreated, Teacher } from '@learnlingo/contract';
import { apiUrl, server } from '../../../test/msw-server';
import { renderApp } from '../../../test/render';
import { ann, signedInSession, signedInState } from '../../favorites/testing/session';
import { catalogueHandlers } from '../../teachers/testing/catalogue-handlers';
import { loadTeachers } from '../../teachers/testing/teachers-fixture';

const teacher = loadTeachers()[1] as Teacher; // Jane Smith: French, German

afterEach(() => toast.remove());

const SLOTS = ['2026-11-03T14:00:00.000Z', '2026-11-03T15:00:00.000Z', '2026-11-04T09:00:00.000Z'];
const TOKEN = 'A'.repeat(43);

function created(body: { start: string; language?: string }): BookingCreated {
  return {
    id: '0b5c8a4e-1c1e-4d1f-9f1e-2a7d0c3b4e5f',
    createdAt: '2026-10-28T12:00:00.000Z',
    token: TOKEN,
    lesson: {
      id: '0b5c8a4e-1c1e-4d1f-9f1e-2a7d0c3b4e5f',
      teacher: { id: teacher.id, name: teacher.name, surname: teacher.surname, avatarUrl: null, timeZone: 'America/New_York' },
      language: body.language ?? 'French',
      start: body.start,
      end: new Date(Date.parse(body.start) + 3_600_000).toISOString(),
      status: 'upcoming',
      cancellable: true,
      reason: 'Living abroad',
      createdAt: '2026-10-28T12:00:00.000Z',
      cancelledAt: null,
      confirmBy: null,
    },
  };
}

async function openBooking({ signedIn = false, answer = (body: { start: string; language?: string }) => HttpResponse.json(created(body), { status: 201 }) } = {}) {
  const bodies: unknown[] = [];
  const slotRequests = { count: 0 };
  server.use(
    ...catalogueHandlers().handlers,
    http.get(apiUrl(`/teachers/${teacher.id}/slots`), () => {
      slotRequests.count += 1;
      return HttpResponse.json({ teacherId: teacher.id, timeZone: 'America/New_York', slots: SLOTS });
    }),
    http.post(apiUrl('/bookings'), async ({ request }) => {
      const body = (await request.json()) as { start: string; language?: string };
      bodies.push(body);
      return answer(body);
    }),
  );
  if (signedIn) server.use(signedInSession, http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })));
  const view = renderApp(`/teachers/${teacher.id}`, signedIn ? { preloadedState: signedInState() } : {});
  // a link to the booking page (decision 105), which the app turns into the modal
  const opener = await screen.findByRole('link', { name: 'Book trial lesson' });
  expect(opener).toHaveAttribute('href', `/teachers/${teacher.id}/book`);
  await view.user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Book trial lesson' });
  expect(view.router.state.location.pathname).toBe(`/teachers/${teacher.id}`);
  // the form is loaded on demand, then the times
  await within(dialog).findByRole('group', { name: /What is your main reason for learning/ });
  // times in a fixed zone, whatever the machine's
  await view.user.selectOptions(await within(dialog).findByRole('combobox', { name: 'Times shown in' }), 'Europe/Berlin');
  await within(dialog).findByRole('radiogroup', { name: /Times on/ });
  return { ...view, dialog, bodies, opener, slotRequests };
}

const field = (dialog: HTMLElement, name: string) => within(dialog).getByRole('textbox', { name });

async function fillForm(view: Awaited<ReturnType<typeof openBooking>>, reason = 'Living abroad') {
  const { dialog, user } = view;
  await user.click(within(dialog).getByRole('radio', { name: reason }));
  await user.type(field(dialog, 'Full Name'), 'Ann Lee');
  await user.type(field(dialog, 'Email'), 'ann@example.com');
  await user.type(field(dialog, 'Phone number'), '+380 (67) 123-45-67');
}

describe('trial lesson booking', () => {
  it('shows the teacher, the language choice, the question with five reasons, the times and the fields, with no errors on mount', async () => {
    const { dialog } = await openBooking();
    expect(within(dialog).getByText('Your teacher')).toBeInTheDocument();
    expect(within(dialog).getByText('Jane Smith')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Lesson language' })).toHaveValue('French');
    const group = within(dialog).getByRole('group', { name: 'What is your main reason for learning French?' });
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'Career and business',
      'Lesson for kids',
      'Living abroad',
      'Exams and coursework',
      'Culture, travel or hobby',
    ]);
    expect(within(dialog).getByText(/The teacher’s time zone: America\/New York/)).toBeInTheDocument();
    expect(field(dialog, 'Full Name')).toHaveValue('');
    expect(field(dialog, 'Email')).toHaveValue('');
    expect(field(dialog, 'Phone number')).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Book' })).toBeInTheDocument();
    expect(within(dialog).queryByText(/required field|Invalid|Choose a reason|can't be is empty|Choose a time for/)).not.toBeInTheDocument();
  });

  it('a filled form can be read back: each field keeps a visible label, with the original\'s words as label and placeholder', async () => {
    const view = await openBooking();
    await fillForm(view);
    for (const [name, value] of [
      ['Full Name', 'Ann Lee'],
      ['Email', 'ann@example.com'],
      ['Phone number', '+380 (67) 123-45-67'],
    ] as const) {
      const input = within(view.dialog).getByLabelText(name);
      expect(input).toHaveValue(value);
      expect(input).toHaveAttribute('placeholder', name);
      // shown, not only for assistive technology (the placeholder is gone once typed in)
      const label = within(view.dialog).getByText(name, { selector: 'label' });
      expect(label).toHaveAttribute('for', input.id);
      expect(label).not.toHaveClass('visually-hidden');
    }
  });

  it('validates on blur and on change with the contract messages, and every field (the time too) on submit', async () => {
    const { dialog, user, bodies } = await openBooking();
    await user.click(field(dialog, 'Full Name'));
    await user.tab();
    expect(await within(dialog).findByText('Full name is required field')).toBeInTheDocument();
    expect(field(dialog, 'Full Name')).toHaveAttribute('aria-invalid', 'true');
    expect(field(dialog, 'Full Name')).toHaveAccessibleDescription('Full name is required field');

    await user.type(field(dialog, 'Email'), 'ann@');
    expect(await within(dialog).findByText('Invalid email')).toBeInTheDocument();
    await user.type(field(dialog, 'Email'), 'example.com');
    await waitFor(() => expect(within(dialog).queryByText('Invalid email')).not.toBeInTheDocument());

    await user.type(field(dialog, 'Phone number'), '12');
    expect(await within(dialog).findByText('Invalid phone number')).toBeInTheDocument();
    await user.clear(field(dialog, 'Phone number'));
    expect(await within(dialog).findByText('Phone number is required field')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect(await within(dialog).findByText('Choose a reason')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a time for your lesson')).toBeInTheDocument();
    expect(within(dialog).getByText('Full name is required field')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('books the chosen time and language, closes with "Thanks for you choice" and shows the time and the private link', async () => {
    const view = await openBooking();
    const { dialog, user, bodies } = view;
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Lesson language' }), 'German');
    expect(within(dialog).getByRole('group', { name: 'What is your main reason for learning German?' })).toBeInTheDocument();
    await fillForm(view);
    // Berlin (UTC+1): 3 Nov 15:00 and 16:00, 4 Nov 10:00
    await user.click(within(dialog).getByRole('button', { name: /Wed 4 Nov/ }));
    await user.click(within(dialog).getByRole('radio', { name: '10:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect((await screen.findAllByText('Thanks for you choice')).length).toBeGreaterThan(0);
    expect(bodies).toEqual([
      {
        teacherId: teacher.id,
        reason: 'Living abroad',
        fullName: 'Ann Lee',
        email: 'ann@example.com',
        phone: '+380 (67) 123-45-67',
        start: '2026-11-04T09:00:00.000Z',
        language: 'German',
        timeZone: 'Europe/Berlin',
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Book trial lesson' })).not.toBeInTheDocument());
    const confirmation = await screen.findByRole('dialog', { name: 'Your trial lesson is booked' });
    // (the hours are an element of their own, kept on one line)
    await waitFor(() => expect(confirmation).toHaveTextContent(/Wednesday 4 November 2026, 10:00–11:00/));
    expect(within(confirmation).getByText('10:00–11:00')).toHaveClass('nowrap');
    expect(within(confirmation).getByRole('link', { name: `${window.location.origin}/bookings/${TOKEN}` })).toHaveAttribute('href', `/bookings/${TOKEN}`);
    expect(within(confirmation).getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', `/api/bookings/token/${TOKEN}/calendar.ics`);
    await user.click(within(confirmation).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(view.opener).toHaveFocus();
  });

  it('a pending booking (decision 102): "Check your e-mail to confirm" with the time to confirm by, and no private link or calendar file', async () => {
    const pending = (body: { start: string }) => {
      const booked = created(body);
      return HttpResponse.json(
        { ...booked, token: null, lesson: { ...booked.lesson, status: 'pending', confirmBy: '2026-10-28T12:30:00.000Z' } },
        { status: 201 },
      );
    };
    const view = await openBooking({ answer: pending });
    await fillForm(view);
    await view.user.click(within(view.dialog).getAllByRole('radio', { name: /^\d\d:00$/ })[0]!);
    await view.user.click(within(view.dialog).getByRole('button', { name: 'Book' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Check your e-mail to confirm' });
    // 12:30 UTC in Berlin (the zone the times were shown in)
    expect(within(confirmation).getByText(/We have e-mailed you a link to confirm this lesson.+by 13:30/)).toBeInTheDocument();
    expect(within(confirmation).queryByRole('link', { name: 'Add to calendar' })).not.toBeInTheDocument();
    expect(within(confirmation).queryByRole('link', { name: /\/bookings\// })).not.toBeInTheDocument();
  });

  it('a request to a teacher who answers each booking (decision 117): "Your request is sent", waiting for the teacher until the answer, no calendar file', async () => {
    const requested = (body: { start: string }) => {
      const booked = created(body);
      return HttpResponse.json({ ...booked, lesson: { ...booked.lesson, status: 'requested', answerBy: '2026-10-29T12:00:00.000Z' } }, { status: 201 });
    };
    const view = await openBooking({ answer: requested });
    await fillForm(view);
    await view.user.click(within(view.dialog).getAllByRole('radio', { name: /^\d\d:00$/ })[0]!);
    await view.user.click(within(view.dialog).getByRole('button', { name: 'Book' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Your request is sent' });
    // 12:00 UTC in Berlin (winter time)
    expect(within(confirmation).getByText(/answers your request by 13:00\. Until then the time is kept for you/)).toBeInTheDocument();
    expect(within(confirmation).getByText(/lets you withdraw it until the teacher answers/)).toBeInTheDocument();
    expect(within(confirmation).queryByRole('link', { name: 'Add to calendar' })).not.toBeInTheDocument();
  });

  it('too many bookings (429): says how long to wait and keeps the form', async () => {
    const message = 'Too many bookings in the last hour. Please try again in 40 minutes.';
    const view = await openBooking({
      answer: () => HttpResponse.json({ error: { code: 'RATE_LIMITED', message } }, { status: 429, headers: { 'retry-after': '2400' } }),
    });
    await fillForm(view);
    await view.user.click(within(view.dialog).getAllByRole('radio', { name: /^\d\d:00$/ })[0]!);
    await view.user.click(within(view.dialog).getByRole('button', { name: 'Book' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(field(view.dialog, 'Full Name')).toHaveValue('Ann Lee');
  });

  it('when the time was just taken: says so, fetches fresh times and keeps everything typed', async () => {
    const view = await openBooking();
    const { dialog, user, slotRequests } = view;
    server.use(
      http.post(apiUrl('/bookings'), () =>
        HttpResponse.json(
          { error: { code: 'SLOT_TAKEN', message: 'taken', fields: { start: 'taken' } } },
          { status: 409 },
        ),
      ),
      http.get(apiUrl(`/teachers/${teacher.id}/slots`), () => {
        slotRequests.count += 1;
        return HttpResponse.json({ teacherId: teacher.id, timeZone: 'America/New_York', slots: SLOTS.slice(1) });
      }),
    );
    await fillForm(view, 'Exams and coursework');
    await user.click(within(dialog).getByRole('radio', { name: '15:00' }));
    const before = slotRequests.count;
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    const message = 'Someone has just booked this time. Please choose another one.';
    expect((await within(dialog).findAllByText(message)).length).toBeGreaterThan(0);
    // focus goes to the time picker, which names the problem
    await waitFor(() => expect(within(dialog).getByRole('group', { name: 'Choose a time' })).toHaveFocus());
    expect(within(dialog).getByRole('group', { name: 'Choose a time' })).toHaveAccessibleDescription(message);
    await waitFor(() => expect(slotRequests.count).toBeGreaterThan(before));
    await waitFor(() => expect(within(dialog).queryByRole('radio', { name: '15:00' })).not.toBeInTheDocument());
    expect(within(dialog).getByRole('radio', { name: '16:00' })).not.toBeChecked();
    expect(field(dialog, 'Full Name')).toHaveValue('Ann Lee');
    expect(field(dialog, 'Phone number')).toHaveValue('+380 (67) 123-45-67');
    expect(within(dialog).getByRole('radio', { name: 'Exams and coursework' })).toBeChecked();
    expect(screen.getByRole('dialog', { name: 'Book trial lesson' })).toBeInTheDocument();
  });

  it('keeps what was typed and shows the server field errors when the server refuses', async () => {
    const view = await openBooking();
    const { dialog, user } = view;
    server.use(
      http.post(apiUrl('/bookings'), () =>
        HttpResponse.json(
          { error: { code: 'VALIDATION_ERROR', message: 'Check the highlighted fields', fields: { phone: 'Invalid phone number' } } },
          { status: 400 },
        ),
      ),
    );
    await fillForm(view, 'Exams and coursework');
    await user.click(within(dialog).getByRole('radio', { name: '15:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect((await screen.findAllByText('Check the highlighted fields')).length).toBeGreaterThan(0);
    expect(within(dialog).getByText('Invalid phone number')).toBeInTheDocument();
    expect(field(dialog, 'Full Name')).toHaveValue('Ann Lee');
    expect(within(dialog).getByRole('radio', { name: 'Exams and coursework' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: '15:00' })).toBeChecked();
  });

  it('keeps what was typed and says what to do when the server fails', async () => {
    const view = await openBooking();
    const { dialog, user } = view;
    server.use(http.post(apiUrl('/bookings'), () => HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, { status: 500 })));
    await fillForm(view, 'Lesson for kids');
    await user.click(within(dialog).getByRole('radio', { name: '15:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect((await screen.findAllByText('Could not send your booking. Please try again.')).length).toBeGreaterThan(0);
    expect(screen.getByRole('dialog', { name: 'Book trial lesson' })).toBeInTheDocument();
    expect(field(dialog, 'Email')).toHaveValue('ann@example.com');
  });

  it("fills in a signed-in user's name and email, and points to My lessons once booked", async () => {
    const view = await openBooking({ signedIn: true });
    const { dialog, user } = view;
    expect(field(dialog, 'Full Name')).toHaveValue(ann.name);
    expect(field(dialog, 'Email')).toHaveValue(ann.email);
    await user.click(within(dialog).getByRole('radio', { name: 'Living abroad' }));
    await user.type(field(dialog, 'Phone number'), '1234567');
    await user.click(within(dialog).getByRole('radio', { name: '16:00' }));
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    const confirmation = await screen.findByRole('dialog', { name: 'Your trial lesson is booked' });
    expect(await within(confirmation).findByRole('link', { name: 'My lessons' })).toHaveAttribute('href', '/lessons');
  });
});
