import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { apiUrl, server } from '../../../test/msw-server';
import { renderApp } from '../../../test/render';
import { ann, signedInSession, signedInState } from '../../favorites/testing/session';
import { catalogueHandlers } from '../../teachers/testing/catalogue-handlers';
import { loadTeachers } from '../../teachers/testing/teachers-fixture';

const teacher = loadTeachers()[1] as Teacher; // Jane Smith: French, German

afterEach(() => toast.remove());

async function openBooking({ signedIn = false } = {}) {
  const bodies: unknown[] = [];
  server.use(
    ...catalogueHandlers().handlers,
    http.post(apiUrl('/bookings'), async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json({ id: 'b1', createdAt: '2026-01-01T00:00:00.000Z' }, { status: 201 });
    }),
  );
  if (signedIn) server.use(signedInSession, http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })));
  const view = renderApp(`/teachers/${teacher.id}`, signedIn ? { preloadedState: signedInState() } : {});
  const opener = await screen.findByRole('button', { name: 'Book trial lesson' });
  await view.user.click(opener);
  const dialog = await screen.findByRole('dialog', { name: 'Book trial lesson' });
  // the form is loaded on demand
  await within(dialog).findByRole('group', { name: /What is your main reason for learning/ });
  return { ...view, dialog, bodies, opener };
}

const field = (dialog: HTMLElement, name: string) => within(dialog).getByRole('textbox', { name });

describe('trial lesson booking', () => {
  it('shows the teacher, the question with five reasons and the fields, with no errors on mount', async () => {
    const { dialog } = await openBooking();
    expect(within(dialog).getByText('Your teacher')).toBeInTheDocument();
    expect(within(dialog).getByText('Jane Smith')).toBeInTheDocument();
    const group = within(dialog).getByRole('group', { name: 'What is your main reason for learning French?' });
    expect(within(group).getAllByRole('radio').map((r) => r.getAttribute('value'))).toEqual([
      'Career and business',
      'Lesson for kids',
      'Living abroad',
      'Exams and coursework',
      'Culture, travel or hobby',
    ]);
    expect(field(dialog, 'Full Name')).toHaveValue('');
    expect(field(dialog, 'Email')).toHaveValue('');
    expect(field(dialog, 'Phone number')).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Book' })).toBeInTheDocument();
    expect(within(dialog).queryByText(/required field|Invalid|Choose a reason|can't be is empty/)).not.toBeInTheDocument();
  });

  it('validates on blur and on change with the contract messages, and every field on submit', async () => {
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
    expect(within(dialog).getByText('Full name is required field')).toBeInTheDocument();
    expect(bodies).toEqual([]);
  });

  it('sends the booking, closes with "Thanks for you choice" and returns focus', async () => {
    const { dialog, user, bodies, opener } = await openBooking();
    await user.click(within(dialog).getByRole('radio', { name: 'Living abroad' }));
    await user.type(field(dialog, 'Full Name'), 'Ann Lee');
    await user.type(field(dialog, 'Email'), 'ann@example.com');
    await user.type(field(dialog, 'Phone number'), '+380 (67) 123-45-67');
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect((await screen.findAllByText('Thanks for you choice')).length).toBeGreaterThan(0);
    expect(bodies).toEqual([
      { teacherId: teacher.id, reason: 'Living abroad', fullName: 'Ann Lee', email: 'ann@example.com', phone: '+380 (67) 123-45-67' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it('keeps what was typed and shows the server field errors when the server refuses', async () => {
    const { dialog, user } = await openBooking();
    server.use(
      http.post(apiUrl('/bookings'), () =>
        HttpResponse.json(
          { error: { code: 'VALIDATION_ERROR', message: 'Check the highlighted fields', fields: { phone: 'Invalid phone number' } } },
          { status: 400 },
        ),
      ),
    );
    await user.click(within(dialog).getByRole('radio', { name: 'Exams and coursework' }));
    await user.type(field(dialog, 'Full Name'), 'Ann Lee');
    await user.type(field(dialog, 'Email'), 'ann@example.com');
    await user.type(field(dialog, 'Phone number'), '1234567');
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect((await screen.findAllByText('Check the highlighted fields')).length).toBeGreaterThan(0);
    expect(within(dialog).getByText('Invalid phone number')).toBeInTheDocument();
    expect(field(dialog, 'Full Name')).toHaveValue('Ann Lee');
    expect(field(dialog, 'Phone number')).toHaveValue('1234567');
    expect(within(dialog).getByRole('radio', { name: 'Exams and coursework' })).toBeChecked();
  });

  it('keeps what was typed and says what to do when the server fails', async () => {
    const { dialog, user } = await openBooking();
    server.use(http.post(apiUrl('/bookings'), () => HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'x' } }, { status: 500 })));
    await user.click(within(dialog).getByRole('radio', { name: 'Lesson for kids' }));
    await user.type(field(dialog, 'Full Name'), 'Ann Lee');
    await user.type(field(dialog, 'Email'), 'ann@example.com');
    await user.type(field(dialog, 'Phone number'), '1234567');
    await user.click(within(dialog).getByRole('button', { name: 'Book' }));
    expect((await screen.findAllByText('Could not send your booking. Please try again.')).length).toBeGreaterThan(0);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(field(dialog, 'Email')).toHaveValue('ann@example.com');
  });

  it("fills in a signed-in user's name and email", async () => {
    const { dialog } = await openBooking({ signedIn: true });
    expect(field(dialog, 'Full Name')).toHaveValue(ann.name);
    expect(field(dialog, 'Email')).toHaveValue(ann.email);
  });
});
