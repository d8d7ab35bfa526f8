import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { server } from '../../../test/msw-server';
import { renderApp } from '../../../test/render';
import { catalogueHandlers, filterTeachers } from '../testing/catalogue-handlers';
import { readCatalogueUrl } from '../lib/catalogue-url';
import { catalogueOrder, loadTeachers } from '../testing/teachers-fixture';

function setup(url = '/teachers') {
  const catalogue = catalogueHandlers();
  server.use(...catalogue.handlers);
  return { ...renderApp(url), catalogue };
}

const cards = () => screen.getAllByRole('article');
const cardNames = () => cards().map((card) => within(card).getByRole('heading', { level: 2 }).textContent);
const names = (teachers: { name: string; surname: string }[]) => teachers.map((t) => `${t.name} ${t.surname}`);
const search = () => screen.getByLabelText('Search teachers');
const count = () => screen.getByText(/^\d+ teachers?$/);
/** What a form submits by GET: its fields as a URL query. */
const formQuery = (form: HTMLFormElement) =>
  new URLSearchParams([...new FormData(form)].map(([name, value]) => [name, String(value)]));
const optionsReady = () =>
  waitFor(() => expect(within(screen.getByLabelText('Languages')).getAllByRole('option').length).toBeGreaterThan(1));

describe('catalogue: search box', () => {
  it('searches once typing rests, as one history entry for the whole word', async () => {
    const { user, router, catalogue } = setup('/teachers');
    await waitFor(() => expect(cards()).toHaveLength(4));
    const before = window.history.length;
    await user.type(search(), 'jane');
    await waitFor(() => expect(router.state.location.search).toBe('?q=jane'));
    const expected = filterTeachers(catalogue.teachers, new URLSearchParams('q=jane'));
    expect(expected.length).toBeGreaterThan(0);
    await waitFor(() => expect(cardNames()).toEqual(names(expected.slice(0, 4))));
    expect(count()).toHaveTextContent(`${expected.length} ${expected.length === 1 ? 'teacher' : 'teachers'}`);
    // more typing after the first search replaces its entry
    await user.type(search(), ' s');
    await waitFor(() => expect(router.state.location.search).toBe('?q=jane+s'));
    expect(window.history.length).toBe(before + 1);
    // no request for every keystroke: the search ran for the words typed, not for "j", "ja", …
    expect(catalogue.requests.pages.map((q) => q.get('q'))).not.toContain('j');
  });

  it('Enter searches at once; the clear button empties the box and the URL', async () => {
    const { user, router } = setup('/teachers');
    await waitFor(() => expect(cards()).toHaveLength(4));
    fireEvent.change(search(), { target: { value: 'smith' } });
    fireEvent.submit(search().closest('form') as HTMLFormElement);
    // no debounce wait: the URL has it right away
    expect(router.state.location.search).toBe('?q=smith');
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(search()).toHaveValue('');
    expect(router.state.location.search).toBe('');
    expect(search()).toHaveFocus();
  });

  it('the URL fills the box (relevance first), and Back takes the search away again', async () => {
    const { router, user } = setup('/teachers?q=jane');
    await waitFor(() => expect(search()).toHaveValue('jane'));
    expect(screen.getByLabelText('Sort by')).toHaveDisplayValue('Relevance');
    await user.clear(search());
    await user.type(search(), 'smith{Enter}');
    expect(router.state.location.search).toBe('?q=smith');
    await router.navigate(-1);
    await waitFor(() => expect(search()).toHaveValue('jane'));
  });
});

describe('catalogue: sort, price range, count, clear all', () => {
  it('sorts by price both ways: the cards come in that order', async () => {
    const { user, router, catalogue } = setup('/teachers');
    await waitFor(() => expect(cards()).toHaveLength(4));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'price-asc');
    expect(router.state.location.search).toBe('?sort=price-asc');
    const ascending = [...catalogue.teachers].sort((a, b) => a.price_per_hour - b.price_per_hour || (a.id < b.id ? -1 : 1));
    await waitFor(() => expect(cardNames()).toEqual(names(ascending.slice(0, 4))));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'price-desc');
    const descending = [...catalogue.teachers].sort((a, b) => b.price_per_hour - a.price_per_hour || (a.id < b.id ? 1 : -1));
    await waitFor(() => expect(cardNames()).toEqual(names(descending.slice(0, 4))));
    // "Relevance" is offered only while searching
    expect(within(screen.getByLabelText('Sort by')).queryByRole('option', { name: 'Relevance' })).toBeNull();
  });

  it('a price range narrows the list; the count and the options follow', async () => {
    const { user, router, catalogue } = setup('/teachers');
    await optionsReady();
    await user.selectOptions(screen.getByLabelText('Price from (min)'), '25');
    await user.selectOptions(screen.getByLabelText('Price up to (max)'), '30');
    expect(router.state.location.search).toBe('?price_min=25&price_max=30');
    const expected = filterTeachers(catalogue.teachers, new URLSearchParams('price_min=25&price_max=30'));
    await waitFor(() => expect(count()).toHaveTextContent(`${expected.length} teachers`));
    await waitFor(() => expect(cardNames()).toEqual(names(expected.slice(0, 4))));
    // "Up to" offers nothing under the minimum
    const upTo = within(screen.getByLabelText('Price up to (max)')).getAllByRole('option').map((o) => o.getAttribute('value'));
    expect(upTo.filter((v) => v !== '').every((v) => Number(v) >= 25)).toBe(true);
  });

  it('the selects show how many teachers each choice leaves', async () => {
    const { catalogue } = setup('/teachers?level=B1%20Intermediate');
    const french = filterTeachers(catalogue.teachers, new URLSearchParams('level=B1 Intermediate&language=French'));
    expect(
      await within(await screen.findByLabelText('Languages')).findByRole('option', { name: `French (${french.length})` }),
    ).toBeInTheDocument();
  });

  it('Clear all empties the search, the order and every filter', async () => {
    const { user, router } = setup('/teachers?q=jane&sort=price-asc&language=French&price_min=20');
    await waitFor(() => expect(search()).toHaveValue('jane'));
    const clearAll = screen.getByRole('link', { name: 'Clear all' });
    expect(clearAll).toHaveAttribute('href', '/teachers');
    await user.click(clearAll);
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(search()).toHaveValue(''));
    expect(screen.getByLabelText('Sort by')).toHaveDisplayValue('Rating');
    expect(screen.queryByRole('link', { name: 'Clear all' })).toBeNull();
  });

  it('"Filters (n)" counts the active filters and opens the panel', async () => {
    const { user } = setup('/teachers?language=French&price_max=30&q=x');
    const toggle = await screen.findByRole('button', { name: 'Filters (2)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById(toggle.getAttribute('aria-controls') as string)).toContainElement(
      screen.getByLabelText('Languages'),
    );
  });

  it('a pick in the open panel folds it, so the results are in view again; focus goes back to its toggle', async () => {
    const { user, router } = setup('/teachers');
    await optionsReady();
    const toggle = screen.getByRole('button', { name: 'Filters (0)' });
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.selectOptions(screen.getByLabelText('Languages'), 'French');
    await waitFor(() => expect(router.state.location.search).toBe('?language=French'));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toHaveFocus();
  });

  it('the price range says which end is which (min, max)', async () => {
    setup('/teachers?price_min=25&price_max=30');
    await optionsReady();
    expect(screen.getByLabelText('Price from (min)')).toHaveValue('25');
    expect(screen.getByLabelText('Price up to (max)')).toHaveValue('30');
  });

  it('stepping through a select with the arrow keys replaces the history entry', async () => {
    const { router } = setup('/teachers');
    await optionsReady();
    const before = window.history.length;
    const select = screen.getByLabelText('Sort by');
    for (const value of ['price-asc', 'price-desc', 'lessons']) {
      fireEvent.keyDown(select, { key: 'ArrowDown' });
      fireEvent.change(select, { target: { value } });
    }
    expect(router.state.location.search).toBe('?sort=lessons');
    expect(window.history.length).toBe(before + 1);
    // a pick with the mouse is its own entry
    fireEvent.blur(select);
    fireEvent.change(select, { target: { value: 'price-asc' } });
    expect(window.history.length).toBe(before + 2);
  });
});

describe('catalogue: the form without JavaScript', () => {
  it('is one GET form for /teachers whose fields are named as the URL the page reads', async () => {
    const url = '/teachers?q=jane&sort=price-asc&language=French&level=B1%20Intermediate&price_min=20&price_max=40';
    setup(url);
    await optionsReady();
    const form = screen.getByRole('search', { name: 'Teachers' });
    expect(form.tagName).toBe('FORM');
    expect(form).toHaveAttribute('method', 'get');
    expect(form).toHaveAttribute('action', '/teachers');
    const fields: [string, string][] = [
      ['Search teachers', 'q'],
      ['Languages', 'language'],
      ['Level of knowledge', 'level'],
      ['Price from (min)', 'price_min'],
      ['Price up to (max)', 'price_max'],
      ['Sort by', 'sort'],
    ];
    for (const [label, name] of fields) {
      const field = screen.getByLabelText(label);
      expect(field).toHaveAttribute('name', name);
      expect((field as HTMLInputElement).form).toBe(form);
    }
    // what the form submits is the query of the URL it was rendered for
    const submitted = formQuery(form as HTMLFormElement);
    expect(readCatalogueUrl(submitted)).toEqual(readCatalogueUrl(new URLSearchParams(url.split('?')[1])));
    // and a submit button for the browser without JavaScript (CSS hides it with JavaScript)
    const apply = within(form).getByRole('button', { name: 'Apply filters' });
    expect(apply).toHaveAttribute('type', 'submit');
    // every other button in the form is a plain button: none submits it by accident
    const others = within(form).getAllByRole('button').filter((button) => button !== apply);
    expect(others.map((button) => button.getAttribute('type'))).toEqual(others.map(() => 'button'));
  });

  it('the default order submits nothing, so that a search gets its own default (relevance)', async () => {
    setup('/teachers');
    await optionsReady();
    const form = screen.getByRole('search', { name: 'Teachers' }) as HTMLFormElement;
    expect(screen.getByLabelText('Sort by')).toHaveDisplayValue('Rating');
    const submitted = formQuery(form);
    expect(submitted.get('sort')).toBe('');
    submitted.set('q', 'jane');
    expect(readCatalogueUrl(submitted)).toEqual({ q: 'jane' });
  });

  it('with JavaScript, submitting (Enter) applies the search without leaving the page', async () => {
    const { router } = setup('/teachers?language=French');
    await optionsReady();
    const form = screen.getByRole('search', { name: 'Teachers' }) as HTMLFormElement;
    fireEvent.change(search(), { target: { value: 'smith' } });
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(router.state.location.search).toBe('?q=smith&language=French');
  });
});

describe('catalogue: URL corrections', () => {
  it('spells values as the catalogue does and drops what is invalid, in place', async () => {
    const { router, catalogue } = setup('/teachers?language=french&level=b1%20intermediate&price=abc&sort=nope');
    await waitFor(() => expect(router.state.location.search).toBe('?language=French&level=B1+Intermediate'));
    // the router's location changes first, the page renders it next (on a busy machine, later)
    await waitFor(() => expect(screen.getByLabelText('Languages')).toHaveValue('French'));
    expect(screen.getByLabelText('Level of knowledge')).toHaveValue('B1 Intermediate');
    const expected = filterTeachers(catalogue.teachers, new URLSearchParams('language=French&level=B1 Intermediate'));
    await waitFor(() => expect(cardNames()).toEqual(names(expected.slice(0, 4))));
  });

  it("the original's price becomes price_max; a minimum above the maximum is dropped", async () => {
    const { router } = setup('/teachers?price=30&price_min=40');
    await waitFor(() => expect(router.state.location.search).toBe('?price_max=30'));
    expect(screen.getByLabelText('Price up to (max)')).toHaveValue('30');
  });
});

describe('teacher page: ← All teachers', () => {
  it('returns to the catalogue with the search and filters the user came from', async () => {
    const { user, router } = setup('/teachers?sort=price-asc&language=English');
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    await user.click(within(cards()[0]!).getAllByRole('link')[0]!);
    const back = await screen.findByRole('link', { name: '← All teachers' });
    expect(back).toHaveAttribute('href', '/teachers?sort=price-asc&language=English');
    await user.click(back);
    expect(router.state.location.search).toBe('?sort=price-asc&language=English');
  });
});

describe('catalogue: country', () => {
  // the original's teachers have no country: here they live in three, one teacher in four nowhere said
  const COUNTRIES = ['France', 'Canada', 'Ukraine', null];
  const withCountries = () => catalogueOrder(loadTeachers()).map((t, i) => ({ ...t, country: COUNTRIES[i % COUNTRIES.length] ?? null }));
  function setupCountries(url: string) {
    const catalogue = catalogueHandlers(withCountries());
    server.use(...catalogue.handlers);
    return { ...renderApp(url), catalogue };
  }

  it('a Country select beside Languages, each country with how many teachers it leaves; a pick filters the list', async () => {
    const { user, router, catalogue } = setupCountries('/teachers?level=B1%20Intermediate');
    const select = await screen.findByLabelText('Country');
    const canada = filterTeachers(catalogue.teachers, new URLSearchParams('level=B1 Intermediate&country=Canada'));
    expect(canada.length).toBeGreaterThan(0);
    expect(await within(select).findByRole('option', { name: `Canada (${canada.length})` })).toBeInTheDocument();
    expect(within(select).getAllByRole('option').map((o) => o.textContent?.replace(/ \(\d+\)$/, ''))).toEqual([
      'All',
      'Canada',
      'France',
      'Ukraine',
    ]);
    // styled and placed as the other filters: a field of the same panel
    expect(select.closest('[role="group"]')).toBe(screen.getByLabelText('Languages').closest('[role="group"]'));
    await user.selectOptions(select, 'Canada');
    expect(router.state.location.search).toBe('?level=B1+Intermediate&country=Canada');
    await waitFor(() => expect(count()).toHaveTextContent(`${canada.length} teacher`));
    await waitFor(() => expect(cardNames()).toEqual(names(canada.slice(0, 4))));
    for (const card of cards()) expect(within(card).getByText('Canada')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filters (2)' })).toBeInTheDocument();
  });

  it('a country in another case is spelt as the catalogue does, in place', async () => {
    const { router } = setupCountries('/teachers?country=%20ukraine%20');
    await waitFor(() => expect(router.state.location.search).toBe('?country=Ukraine'));
    await waitFor(() => expect(screen.getByLabelText('Country')).toHaveValue('Ukraine'));
  });
});
