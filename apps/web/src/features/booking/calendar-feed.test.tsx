import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import { renderWithStore } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import LearnerCalendarFeed from './calendar-feed';

afterEach(() => {
  toast.remove();
  vi.restoreAllMocks();
});

const FIRST = 'http://127.0.0.1:3000/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics';
const SECOND = 'http://127.0.0.1:3000/calendar/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.ics';

describe('My lessons’ calendar feed', () => {
  it('gets a link on request, shows it to copy, and renews it after asking', async () => {
    let url: string | null = null;
    const renewals: string[] = [];
    server.use(
      http.get(apiUrl('/calendar-feed'), () => HttpResponse.json({ url })),
      http.post(apiUrl('/calendar-feed/renew'), () => {
        url = url === null ? FIRST : SECOND;
        renewals.push(url);
        return HttpResponse.json({ url });
      }),
    );
    const { user } = renderWithStore(<LearnerCalendarFeed />);
    expect(screen.getByRole('region', { name: 'Calendar feed' })).toBeInTheDocument();
    const get = await screen.findByRole('button', { name: 'Get my calendar link' });
    await waitFor(() => expect(get).toBeEnabled());
    await user.click(get);
    expect(await screen.findByRole('textbox', { name: 'Your private calendar link' })).toHaveValue(FIRST);

    // renewing asks first: refused, nothing happens
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await user.click(screen.getByRole('button', { name: 'Renew link' }));
    expect(renewals).toEqual([FIRST]);
    await user.click(screen.getByRole('button', { name: 'Renew link' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Your private calendar link' })).toHaveValue(SECOND));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(renewals).toEqual([FIRST, SECOND]);
  });

  it('says so when the link cannot be loaded, and tries again', async () => {
    let fail = true;
    server.use(
      http.get(apiUrl('/calendar-feed'), () =>
        fail ? HttpResponse.json({ error: { code: 'INTERNAL', message: 'x' } }, { status: 500 }) : HttpResponse.json({ url: FIRST }),
      ),
    );
    const { user } = renderWithStore(<LearnerCalendarFeed />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your calendar link.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Your private calendar link' })).toHaveValue(FIRST);
  });
});
