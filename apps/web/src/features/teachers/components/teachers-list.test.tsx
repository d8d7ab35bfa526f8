import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { apiUrl, server } from '../../../test/msw-server';
import { renderApp } from '../../../test/render';
import { makeStore } from '../../../store';
import { prefetchCatalogue } from '../index';
import { catalogueHandlers, filterTeachers } from '../testing/catalogue-handlers';

function setup(url = '/teachers') {
  const catalogue = catalogueHandlers();
  server.use(...catalogue.handlers);
  return { ...renderApp(url), catalogue };
}

const cards = () => screen.getAllByRole('article');
const cardNames = () => cards().map((card) => within(card).getByRole('heading', { level: 2 }).textContent);

describe('catalogue: URL filters ↔ selects, slice and request', () => {
  it('reads the filters from the URL into the selects, the filters slice and the request', async () => {
    const { store, catalogue } = setup('/teachers?language=French&level=B1%20Intermediate&price=30');
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    expect(screen.getByLabelText('Languages')).toHaveValue('French');
    expect(screen.getByLabelText('Level of knowledge')).toHaveValue('B1 Intermediate');
    expect(screen.getByLabelText('Price up to (max)')).toHaveValue('30');
    expect(store.getState().filters).toMatchObject({ language: 'French', level: 'B1 Intermediate', price: '30' });
    const query = catalogue.requests.pages[0]!;
    expect(Object.fromEntries(query)).toEqual({ language: 'French', level: 'B1 Intermediate', price_max: '30' });
    const expected = filterTeachers(catalogue.teachers, query).slice(0, 4);
    expect(cardNames()).toEqual(expected.map((t) => `${t.name} ${t.surname}`));
    // the chosen level is highlighted on every card
    for (const card of cards()) {
      expect(within(card).getByText('#B1 Intermediate', { exact: false })).toHaveAttribute('data-active', 'true');
    }
  });

  it('a changed select updates the URL and the request; Back restores the previous filters', async () => {
    const { store, router, user, catalogue } = setup('/teachers');
    await waitFor(() => expect(cards()).toHaveLength(4));
    await waitFor(() => expect(within(screen.getByLabelText('Languages')).getAllByRole('option').length).toBeGreaterThan(1));

    await user.selectOptions(screen.getByLabelText('Languages'), 'German');
    expect(router.state.location.search).toBe('?language=German');
    await waitFor(() => expect(catalogue.requests.pages.at(-1)?.get('language')).toBe('German'));
    await waitFor(() => expect(store.getState().filters.language).toBe('German'));
    await waitFor(() =>
      expect(cardNames()).toEqual(
        filterTeachers(catalogue.teachers, new URLSearchParams('language=German'))
          .slice(0, 4)
          .map((t) => `${t.name} ${t.surname}`),
      ),
    );

    await user.selectOptions(screen.getByLabelText('Price up to (max)'), '30');
    expect(router.state.location.search).toBe('?language=German&price_max=30');
    await waitFor(() =>
      expect(Object.fromEntries(catalogue.requests.pages.at(-1)!)).toEqual({ language: 'German', price_max: '30' }),
    );

    await router.navigate(-1);
    await waitFor(() => expect(screen.getByLabelText('Price up to (max)')).toHaveValue(''));
    expect(screen.getByLabelText('Languages')).toHaveValue('German');
    await waitFor(() => expect(store.getState().filters).toMatchObject({ language: 'German', level: '', price: '' }));

    await router.navigate(-1);
    await waitFor(() => expect(screen.getByLabelText('Languages')).toHaveValue(''));
    await waitFor(() => expect(store.getState().filters).toMatchObject({ language: '', level: '', price: '' }));

    // choosing "All" removes the filter from the URL
    await user.selectOptions(screen.getByLabelText('Level of knowledge'), 'C2 Proficient');
    expect(router.state.location.search).toBe('?level=C2+Proficient');
    await user.selectOptions(screen.getByLabelText('Level of knowledge'), 'All');
    expect(router.state.location.search).toBe('');
  });

  it('drops invalid URL values instead of failing', async () => {
    const { store, catalogue } = setup('/teachers?level=Z9&price=abc&language=French');
    await waitFor(() => expect(cards().length).toBeGreaterThan(0));
    expect(Object.fromEntries(catalogue.requests.pages[0]!)).toEqual({ language: 'French' });
    expect(store.getState().filters).toMatchObject({ language: 'French', level: '', price: '' });
  });
});

describe('catalogue: paging', () => {
  it('shows 4 cards, fetches the next page by cursor with "Load more" and hides it at the end', async () => {
    const { user, router, catalogue } = setup('/teachers');
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(catalogue.requests.pages[0]!.get('cursor')).toBeNull();

    // a real link to the next teachers' page (for a browser without JavaScript) …
    const loadMore = screen.getByRole('link', { name: 'Load more' });
    expect(loadMore).toHaveAttribute('href', '/teachers?cursor=4');
    // … which JavaScript turns into appending them in place
    await user.click(loadMore);
    await waitFor(() => expect(cards()).toHaveLength(8));
    expect(router.state.location.search).toBe('');
    expect(catalogue.requests.pages[1]!.get('cursor')).toBe('4');
    // focus moves to the first new teacher
    expect(document.activeElement).toBe(within(cards()[4]!).getByRole('link'));
    expect(screen.getByRole('link', { name: 'Load more' })).toHaveAttribute('href', '/teachers?cursor=8');

    const total = catalogue.teachers.length;
    while (screen.queryByRole('link', { name: /Load more|Loading/ })) {
      const before = cards().length;
      await user.click(screen.getByRole('link', { name: 'Load more' }));
      await waitFor(() => expect(cards().length).toBeGreaterThan(before));
    }
    expect(cards()).toHaveLength(total);
    expect(new Set(cardNames()).size).toBe(total);
    expect(screen.getByText(`${total} teachers shown, all loaded`)).toHaveAttribute('role', 'status');
    expect(catalogue.requests.pages).toHaveLength(Math.ceil(total / 4));
  });

  it('shows an empty state with "Reset filters" when nothing matches', async () => {
    const { user, router } = setup('/teachers?language=Klingon');
    expect(await screen.findByRole('heading', { name: 'No teachers match these filters' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Load more' })).not.toBeInTheDocument();
    const reset = screen.getByRole('link', { name: 'Reset filters' });
    expect(reset).toHaveAttribute('href', '/teachers');
    await user.click(reset);
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(cards()).toHaveLength(4));
  });

  it('names the search when a search alone finds nothing; with a filter set, keeps "Reset filters"', async () => {
    const { user, router } = setup('/teachers?q=germnzzq');
    expect(await screen.findByRole('heading', { name: 'No teachers found for “germnzzq”' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No teachers match these filters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Reset filters' })).not.toBeInTheDocument();
    const clear = screen.getByRole('link', { name: 'Clear search' });
    expect(clear).toHaveAttribute('href', '/teachers');
    await user.click(clear);
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(cards()).toHaveLength(4));
  });

  it.each(['language=French', 'country=Ukraine', 'price_max=30'])('says "No teachers match these filters" when a search with a filter (%s) finds nothing', async (filter) => {
    setup(`/teachers?q=germnzzq&${filter}`);
    expect(await screen.findByRole('heading', { name: 'No teachers match these filters' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reset filters' })).toHaveAttribute('href', '/teachers');
    expect(screen.queryByText(/No teachers found for/)).not.toBeInTheDocument();
  });

  it('shows an error state with "Try again" when the fetch fails, and recovers', async () => {
    const { user, catalogue } = setup('/teachers');
    let fail = true;
    server.use(
      http.get(apiUrl('/teachers'), () =>
        fail ? HttpResponse.json({ error: { code: 'INTERNAL_ERROR', message: 'boom' } }, { status: 500 }) : undefined,
      ),
    );
    expect(await screen.findByRole('heading', { name: 'Could not load the teachers' })).toBeInTheDocument();
    fail = false;
    const again = screen.getByRole('link', { name: 'Try again' });
    expect(again).toHaveAttribute('href', '/teachers');
    await user.click(again);
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(catalogue.requests.pages).toHaveLength(1);
  });

  it('keeps the cards and offers "Try again" when a next page fails', async () => {
    const { user } = setup('/teachers');
    await waitFor(() => expect(cards()).toHaveLength(4));
    let fail = true;
    server.use(http.get(apiUrl('/teachers'), () => (fail ? HttpResponse.error() : undefined)));
    await user.click(screen.getByRole('link', { name: 'Load more' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load more teachers');
    expect(cards()).toHaveLength(4);
    fail = false;
    await user.click(screen.getByRole('link', { name: 'Try again' }));
    await waitFor(() => expect(cards()).toHaveLength(8));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('catalogue: a page opened from a "Load more" link (?cursor=)', () => {
  it('shows the teachers from that cursor, with its own Load more, and keeps the cursor in the URL', async () => {
    const { router, user, catalogue } = setup('/teachers?language=English&cursor=4');
    const english = filterTeachers(catalogue.teachers, new URLSearchParams('language=English'));
    expect(english.length).toBeGreaterThan(8);
    await waitFor(() => expect(cardNames()).toEqual(english.slice(4, 8).map((t) => `${t.name} ${t.surname}`)));
    expect(Object.fromEntries(catalogue.requests.pages[0]!)).toEqual({ language: 'English', cursor: '4' });
    expect(router.state.location.search).toBe('?language=English&cursor=4');
    expect(screen.getByRole('link', { name: 'Load more' })).toHaveAttribute('href', '/teachers?language=English&cursor=8');
    // a filter changed here starts the list again at its first teacher
    await user.selectOptions(screen.getByLabelText('Sort by'), 'price-asc');
    expect(router.state.location.search).toBe('?sort=price-asc&language=English');
    await waitFor(() => expect(catalogue.requests.pages.at(-1)?.get('cursor')).toBeNull());
  });

  it('ignores a cursor no server could take (longer than the contract allows)', async () => {
    const { router, catalogue } = setup(`/teachers?cursor=${'x'.repeat(201)}`);
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(catalogue.requests.pages[0]!.get('cursor')).toBeNull();
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });
});

describe('prefetchCatalogue (what the server renderer fetches for /teachers?…)', () => {
  it('fills a fresh store so that the page renders its cards and options without asking again', async () => {
    const catalogue = catalogueHandlers();
    server.use(...catalogue.handlers);
    const url = '/teachers?q=a&sort=price-asc&level=B1%20Intermediate&price_max=40&cursor=4';
    const store = makeStore();
    await prefetchCatalogue(store.dispatch, new URLSearchParams(url.split('?')[1]));
    // the filters as the page's effect will mirror them, before any render (decision 137: the
    // cards hydrate after that effect, so the server's HTML must read the same)
    expect(store.getState().filters).toMatchObject({ q: 'a', sort: 'price-asc', level: 'B1 Intermediate', price: '40', search: 'q=a&sort=price-asc&level=B1+Intermediate&price_max=40' });
    expect(catalogue.requests.pages).toHaveLength(1);
    expect(catalogue.requests.facets).toHaveLength(1);

    renderApp(url, { store });
    const expected = filterTeachers(catalogue.teachers, new URLSearchParams(url.split('?')[1])).slice(4, 8);
    expect(expected.length).toBeGreaterThan(0);
    // the first render already has them: no skeletons, no wait for the network
    expect(await screen.findAllByRole('article')).toHaveLength(expected.length);
    expect(cardNames()).toEqual(expected.map((t) => `${t.name} ${t.surname}`));
    expect(within(screen.getByLabelText('Level of knowledge')).getAllByRole('option').length).toBeGreaterThan(2);
    // the page settled (the URL is its own spelling) and nothing more was asked for
    await waitFor(() => expect(store.getState().filters.search).toBe('q=a&sort=price-asc&level=B1+Intermediate&price_max=40'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(catalogue.requests.pages).toHaveLength(1);
    expect(catalogue.requests.facets).toHaveLength(1);
  });
});
