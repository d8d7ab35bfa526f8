import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { server } from '../../test/msw-server';
import { renderApp } from '../../test/render';
import { catalogueHandlers } from './testing/catalogue-handlers';
import { loadTeachers } from './testing/teachers-fixture';

const teacher = loadTeachers()[4] as Teacher;

describe('/teachers/:id', () => {
  it('shows one teacher expanded, with reviews and booking', async () => {
    server.use(...catalogueHandlers().handlers);
    renderApp(`/teachers/${teacher.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: `${teacher.name} ${teacher.surname}` })).toBeInTheDocument();
    expect(screen.getByText(teacher.experience)).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Reviews' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Book trial lesson' })).toHaveAttribute('href', `/teachers/${teacher.id}/book`);
    // the teacher's own page just shows the details: nothing to fold them away
    expect(screen.queryByText('Show less')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← All teachers' })).toHaveAttribute('href', '/teachers');
    await waitFor(() => expect(document.title).toBe(`${teacher.name} ${teacher.surname} · LearnLingo`));
  });

  it('shows a not-found state with a link to the catalogue for a missing id', async () => {
    server.use(...catalogueHandlers().handlers);
    renderApp('/teachers/no-such-teacher');
    expect(await screen.findByRole('heading', { name: 'Teacher not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See all teachers' })).toHaveAttribute('href', '/teachers');
  });
});
