import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import toast from 'react-hot-toast';
import type { ActivityPage, PeoplePage, Person } from '@learnlingo/contract';
import { renderApp } from '../../test/render';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState } from '../../test/auth-state';
import { changesOf, describeAction, describeSubject, formatInstant } from './activity-format';

afterEach(() => toast.remove());

const lea: Person = { id: 'u2', name: 'Lea Learner', email: 'lea@example.com', role: 'learner', banned: false, createdAt: '2026-11-01T10:00:00.000Z', teacherId: null };

function asAdmin() {
  server.use(http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf('Ada Admin', 'ada@example.com', 'admin'))));
  return signedInState('Ada Admin', 'ada@example.com', 'admin');
}

describe('People (/admin/people)', () => {
  it('lists the page the server sends, searches through the URL, changes a role and deactivates', async () => {
    let person = { ...lea };
    const asked: string[] = [];
    const puts: unknown[] = [];
    server.use(
      http.get(apiUrl('/staff/people'), ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json({ items: [person], total: 1, page: 1, pageSize: 20 } satisfies PeoplePage);
      }),
      http.put(apiUrl('/staff/people/u2/role'), async ({ request }) => {
        const body = (await request.json()) as { role: Person['role'] };
        puts.push(body);
        person = { ...person, role: body.role };
        return HttpResponse.json(person);
      }),
      http.put(apiUrl('/staff/people/u2/active'), async ({ request }) => {
        const body = (await request.json()) as { active: boolean };
        puts.push(body);
        person = { ...person, banned: !body.active };
        return HttpResponse.json(person);
      }),
      http.get(apiUrl('/staff/activity'), () => HttpResponse.json({ items: [], next: null, total: 0 } satisfies ActivityPage)),
    );
    const { user } = renderApp('/admin/people', { preloadedState: asAdmin() });
    const table = await screen.findByRole('table', { name: 'Accounts' });
    const row = within(table).getByRole('row', { name: /Lea Learner/ });
    expect(within(row).getByText('lea@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Active')).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search by name or e-mail' }), 'lea');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await expect.poll(() => window.location.search).toBe('?q=lea');
    await expect.poll(() => asked.at(-1)).toBe('?q=lea');

    await user.selectOptions(within(row).getByRole('combobox', { name: 'Role of Lea Learner' }), 'teacher');
    expect(await screen.findByText('Lea Learner is now teacher.')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Deactivate Lea Learner' }));
    expect(await screen.findByText('Lea Learner is deactivated: signed out everywhere.')).toBeInTheDocument();
    expect(await within(table).findByText('Deactivated')).toBeInTheDocument();
    expect(puts).toEqual([{ role: 'teacher' }, { active: false }]);
  });

  it('shows what the server refused', async () => {
    server.use(
      http.get(apiUrl('/staff/people'), () => HttpResponse.json({ items: [lea], total: 1, page: 1, pageSize: 20 })),
      http.put(apiUrl('/staff/people/u2/active'), () =>
        HttpResponse.json({ error: { code: 'FORBIDDEN', message: 'Only the school’s admins may do this' } }, { status: 403 }),
      ),
    );
    const { user } = renderApp('/admin/people', { preloadedState: asAdmin() });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Lea Learner' }));
    expect(await screen.findByText('Only the school’s admins may do this')).toBeInTheDocument();
  });
});

describe('the activity log’s texts', () => {
  it('says when in UTC, what an action means, and what changed', () => {
    expect(formatInstant('2026-10-25T01:30:00.000Z')).toBe('2026-10-25 01:30 UTC');
    expect(describeAction('user.deactivate')).toBe('Deactivated the account');
    expect(describeAction('teacher.publish')).toBe('Published the teacher');
    // a teacher's own hours (/teach) read like the console's actions
    expect(['hours.update', 'timeOff.create', 'timeOff.delete', 'extraHours.create', 'extraHours.delete'].map(describeAction)).toEqual([
      'Changed the weekly hours',
      'Added time off',
      'Removed time off',
      'Added extra hours',
      'Removed extra hours',
    ]);
    // an action this console does not know yet reads as it is stored
    expect(describeAction('teacher.rename')).toBe('teacher.rename');
    expect(describeSubject({ type: 'school', id: 'settings', label: null })).toBe('school settings');
    expect(describeSubject({ type: 'user', id: 'u1', label: 'Ann <ann@example.com>' })).toBe('account Ann <ann@example.com>');
    expect(describeSubject({ type: 'teacher', id: 't1', label: 'Ann Lee' })).toBe('teacher Ann Lee (t1)');
    expect(describeSubject({ type: 'user', id: 'u9', label: null })).toBe('account u9');
    expect(changesOf({ role: 'learner', teacherId: 't1' }, { role: 'teacher', teacherId: null })).toEqual([
      ['role', 'learner', 'teacher'],
      ['teacherId', 't1', 'none'],
    ]);
    expect(changesOf(null, { email: 'a@example.com', list: ['x'] })).toEqual([
      ['email', '—', 'a@example.com'],
      ['list', '—', '["x"]'],
    ]);
    expect(changesOf({ text: 'a'.repeat(200) }, null)[0]![1]).toHaveLength(80);
  });
});
