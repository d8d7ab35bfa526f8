import { fireEvent, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { avatarPath } from '@learnlingo/contract/plain';
import { renderWithStore } from '../../../test/render';
import { loadTeachers } from '../testing/teachers-fixture';
import { TeacherCard } from './teacher-card';

const teacher = loadTeachers()[1] as Teacher; // Jane Smith: French, German; 2 reviews

function renderCard(props: Partial<Parameters<typeof TeacherCard>[0]> = {}) {
  return renderWithStore(
    <MemoryRouter>
      <TeacherCard teacher={teacher} booking={<button type="button">Book trial lesson</button>} {...props} />
    </MemoryRouter>,
  );
}

describe('TeacherCard', () => {
  it('writes every rating with one decimal, the card’s as its reviews’ ("Rating: 5.0", "3.0")', () => {
    renderCard({ teacher: { ...teacher, rating: 5, reviews: [{ reviewer_name: 'Ann', reviewer_rating: 3, comment: 'Fine.' }] } });
    const card = screen.getByRole('article', { name: 'Jane Smith' });
    expect(within(card).getByText('Rating: 5.0')).toBeInTheDocument();
    expect(within(within(card).getByRole('list', { name: 'Reviews' })).getByText('3.0')).toBeInTheDocument();
  });

  it('shows the collapsed card: name link, figures, Speaks, Lesson Info, Conditions, levels', () => {
    renderCard();
    const card = screen.getByRole('article', { name: 'Jane Smith' });
    expect(within(card).getByText('Languages')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Jane Smith' })).toHaveAttribute('href', `/teachers/${teacher.id}`);
    expect(within(card).getByText('Lessons online')).toBeInTheDocument();
    expect(within(card).getByText(`Lessons done: ${teacher.lessons_done}`)).toBeInTheDocument();
    expect(within(card).getByText(`Rating: ${teacher.rating.toFixed(1)}`)).toBeInTheDocument();
    expect(within(card).getByText('Price / 1 hour:')).toBeInTheDocument();
    expect(within(card).getByText(`${teacher.price_per_hour}$`)).toHaveClass('price');
    expect(within(card).getByText('Speaks:')).toBeInTheDocument();
    expect(within(card).getByText(teacher.languages.join(', '))).toBeInTheDocument();
    expect(within(card).getByText('Lesson Info:')).toBeInTheDocument();
    expect(within(card).getByText(teacher.lesson_info)).toBeInTheDocument();
    expect(within(card).getByText('Conditions:')).toBeInTheDocument();
    const levels = within(within(card).getByRole('list', { name: 'Levels' })).getAllByRole('listitem');
    expect(levels.map((li) => li.textContent)).toEqual(teacher.levels.map((l) => `#${l}`));
    // collapsed: experience and reviews hidden (in a closed <details>), no booking
    expect(within(card).getByText(teacher.experience)).not.toBeVisible();
    expect(within(card).getByRole('list', { name: 'Reviews' })).not.toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Book trial lesson' })).not.toBeInTheDocument();
  });

  it('shows where the teacher lives after the languages, and nothing when that is not known', () => {
    renderCard({ teacher: { ...teacher, country: 'Canada' } });
    const card = screen.getByRole('article', { name: 'Jane Smith' });
    const facts = within(card).getAllByRole('term').map((term) => term.textContent);
    expect(facts).toEqual(['Speaks:', 'Country:', 'Lesson Info:', 'Conditions:']);
    expect(within(card).getByText('Canada')).toBeInTheDocument();
  });

  it('a teacher without a country: no Country line', () => {
    renderCard({ teacher: { ...teacher, country: null } });
    const card = screen.getByRole('article', { name: 'Jane Smith' });
    expect(within(card).queryByText('Country:')).toBeNull();
  });

  it('the avatar carries no "online" dot (nothing tells whether a teacher is online)', () => {
    renderCard();
    // the teacher's avatar (the reviewers' ones follow, inside "Read more")
    const avatar = within(screen.getByRole('article', { name: 'Jane Smith' })).getAllByTestId('avatar')[0]!;
    // the ring around the avatar holds the avatar and nothing else
    expect(avatar.parentElement?.children).toHaveLength(1);
  });

  it('"Read more" (a <details> summary) expands experience, reviews and "Book trial lesson"', async () => {
    const { user } = renderCard();
    const toggle = screen.getByText('Read more').closest('summary')!;
    const details = toggle.closest('details');
    // both labels are in the summary; CSS shows the one that fits the open state (tried in Chromium:
    // catalogue.spec.ts with scripts, no-javascript.spec.ts without)
    expect(within(toggle).getByText('Show less')).toBeInTheDocument();
    expect(details).not.toHaveAttribute('open');
    await user.click(toggle);
    expect(details).toHaveAttribute('open');
    expect(screen.getByText(teacher.experience)).toBeVisible();
    const reviews = within(screen.getByRole('list', { name: 'Reviews' })).getAllByRole('listitem');
    expect(reviews).toHaveLength(teacher.reviews.length);
    const [first] = teacher.reviews;
    expect(within(reviews[0]!).getByText(first!.reviewer_name)).toBeInTheDocument();
    expect(within(reviews[0]!).getByText(first!.reviewer_rating.toFixed(1))).toBeInTheDocument();
    expect(within(reviews[0]!).getByText(first!.comment)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book trial lesson' })).toBeInTheDocument();
    await user.click(toggle);
    expect(details).not.toHaveAttribute('open');
    expect(screen.getByText(teacher.experience)).not.toBeVisible();
    expect(screen.queryByRole('button', { name: 'Book trial lesson' })).not.toBeInTheDocument();
  });

  it('the server markup opens without JavaScript: experience and reviews inside <details>, the name a link', () => {
    const html = renderToString(
      <MemoryRouter>
        <TeacherCard teacher={teacher} />
      </MemoryRouter>,
    );
    const card = document.createElement('div');
    card.innerHTML = html;
    const details = card.querySelector('details');
    expect(details?.querySelector(':scope > summary')?.textContent).toBe('Read moreShow less');
    expect(details?.hasAttribute('open')).toBe(false);
    expect(details?.textContent).toContain(teacher.experience);
    expect(details?.querySelectorAll('[aria-label="Reviews"] li')).toHaveLength(teacher.reviews.length);
    expect(card.querySelector('h2 a')?.getAttribute('href')).toBe(`/teachers/${teacher.id}`);
  });

  it("shows the teacher's picture from this origin (decision 093), never from the catalogue's host", () => {
    renderCard();
    const img = screen.getAllByTestId('avatar')[0]!.querySelector('img')!;
    expect(teacher.avatar_url).toMatch(/^https:\/\//);
    expect(img.getAttribute('src')).toBe(avatarPath(teacher.id, teacher.avatar_url));
    expect(img.getAttribute('src')).toMatch(new RegExp(`^/avatars/${teacher.id}/[0-9a-f]{8}$`));
  });

  it('shows the initials when the picture fails to load, without changing size', () => {
    renderCard();
    const avatar = screen.getAllByTestId('avatar')[0]!;
    const img = avatar.querySelector('img')!;
    expect(img).toHaveAttribute('width', '96');
    expect(img).toHaveAttribute('height', '96');
    expect(avatar).toHaveStyle({ width: '96px', height: '96px' });
    fireEvent.error(img);
    expect(avatar.querySelector('img')).toBeNull();
    expect(avatar).toHaveTextContent('JS');
    expect(avatar).toHaveStyle({ width: '96px', height: '96px' });
  });

  it('shows the initials when there is no picture', () => {
    renderWithStore(
      <MemoryRouter>
        <TeacherCard teacher={{ ...teacher, avatar_url: null }} />
      </MemoryRouter>,
    );
    const avatar = screen.getAllByTestId('avatar')[0]!;
    expect(avatar.querySelector('img')).toBeNull();
    expect(avatar).toHaveTextContent('JS');
  });

  it('highlights the level chosen in the filter', () => {
    renderCard({ activeLevel: 'B1 Intermediate' });
    const levels = within(screen.getByRole('list', { name: 'Levels' })).getAllByRole('listitem');
    const active = levels.filter((li) => li.hasAttribute('data-active'));
    expect(active).toHaveLength(1);
    expect(active[0]).toHaveTextContent('#B1 Intermediate');
    expect(active[0]).toHaveClass('levelActive');
  });

  it('on the teacher page shows the details and booking, with no Read more / Show less to fold them', () => {
    renderCard({ alwaysExpanded: true, headingLevel: 'h1' });
    expect(screen.getByRole('heading', { level: 1, name: 'Jane Smith' })).toBeInTheDocument();
    expect(screen.getByText(teacher.experience)).toBeVisible();
    expect(screen.getByRole('list', { name: 'Reviews' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Book trial lesson' })).toBeVisible();
    expect(screen.queryByText('Show less')).not.toBeInTheDocument();
    expect(screen.queryByText('Read more')).not.toBeInTheDocument();
    expect(document.querySelector('details')).toBeNull();
  });
});
