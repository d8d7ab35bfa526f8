import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiUrl, server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { asTeacher, invalid, profile } from './teach-fixtures';

describe('/teach/profile', () => {
  it('shows the card to edit (no status, no hours) and saves every field with PUT', async () => {
    const sent: unknown[] = [];
    server.use(
      http.put(apiUrl('/teach/profile'), async ({ request }) => {
        const body = (await request.json()) as object;
        sent.push(body);
        return HttpResponse.json({ ...profile, ...body });
      }),
    );
    const { user } = renderApp('/teach/profile', { preloadedState: asTeacher() });
    const form = await screen.findByRole('form', { name: 'Your profile' }, { timeout: 10_000 });
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Your card is in the catalogue.')).toBeInTheDocument();
    expect(within(form).getByLabelText('First name')).toHaveValue('Jane');
    expect(within(form).queryByLabelText('Time zone')).not.toBeInTheDocument();
    expect(within(form).queryByText(/status/i)).not.toBeInTheDocument();
    const save = within(form).getByRole('button', { name: 'Save profile' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.clear(within(form).getByLabelText('Price per hour ($)'));
    await user.type(within(form).getByLabelText('Price per hour ($)'), '35');
    await user.click(save);
    expect(await within(form).findByRole('status')).toHaveTextContent('Saved.');
    expect(sent).toEqual([
      {
        name: 'Jane',
        surname: 'Smith',
        languages: ['French', 'English'],
        levels: ['A1 Beginner', 'B1 Intermediate'],
        price_per_hour: 35,
        lesson_info: 'Conversation first.',
        conditions: ['Be on time'],
        experience: 'Ten years.',
        avatar_url: null,
        country: 'France',
      },
    ]);
  });

  it("checks the fields first, then shows the server's 400 at the field it names", async () => {
    let puts = 0;
    server.use(
      http.put(apiUrl('/teach/profile'), () => {
        puts += 1;
        return invalid({ 'conditions.0': 'Too long' });
      }),
    );
    const { user } = renderApp('/teach/profile', { preloadedState: asTeacher() });
    const form = await screen.findByRole('form', { name: 'Your profile' }, { timeout: 10_000 });
    const save = within(form).getByRole('button', { name: 'Save profile' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.clear(within(form).getByLabelText('First name'));
    await user.click(save);
    expect(within(form).getByLabelText('First name')).toHaveAccessibleDescription('Required');
    expect(puts).toBe(0);
    await user.type(within(form).getByLabelText('First name'), 'Jane');
    await user.click(save);
    await waitFor(() => expect(within(form).getByLabelText('Conditions')).toHaveAccessibleDescription('One per line Too long'));
    expect(puts).toBe(1);
  });

  it('uploads a photo to the teacher’s own card and shows it', async () => {
    server.use(http.post(apiUrl('/teach/profile/photo'), () => HttpResponse.json({ avatar_url: '/photos/0123456789abcdef0123456789abcdef-192.webp', large_url: '/photos/0123456789abcdef0123456789abcdef-640.webp' }, { status: 201 })));
    const { user } = renderApp('/teach/profile', { preloadedState: asTeacher() });
    const form = await screen.findByRole('form', { name: 'Your profile' }, { timeout: 10_000 });
    const input = within(form).getByLabelText('Upload a photo');
    await waitFor(() => expect(input).toBeEnabled());
    await user.upload(input, new File([new Uint8Array([0x89, 0x50])], 'me.png', { type: 'image/png' }));
    expect(await within(form).findByText('Your new photo is on your card.')).toBeInTheDocument();
    expect(within(form).getByRole('img', { name: 'Your photo as learners see it' })).toHaveAttribute('src', '/photos/0123456789abcdef0123456789abcdef-192.webp');
  });

  it('anyone but a teacher (the API says 403) gets the not-found page', async () => {
    const preloadedState = asTeacher();
    server.use(http.get(apiUrl('/teach/profile'), () => HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'no' } }, { status: 403 })));
    renderApp('/teach/hours', { preloadedState });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
  });
});
