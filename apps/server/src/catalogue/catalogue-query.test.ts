import { facetsSchema, teachersPageSchema, type Facets } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTeachers } from './profiles/generator.js';
import { createTestApp, type TestApp } from '../test/app.js';
import {
  filterQuery,
  type Generated,
  listStatementsRun,
  type ModelFilters,
  NOBODY,
  ORDER,
  pageThrough as pageThroughApp,
  pairwise,
  passes,
  PRICE_RANGES,
  searchIndexBuilt,
  tagValues,
} from '../test/catalogue-model.js';
import { TAG_FILTERS, facetOf, valuesOf, type TagFilter } from './model/registry.js';

// Search, orders, price ranges, totals and facet counts (issue 11), against a model of
// the 100 generated teachers computed here. The response cache is off, so every request
// is answered anew: from the search index once it is built (waited for below), and the
// search statements for what the index leaves to them.
const COUNT = 100;
const generated: Generated[] = [...generateTeachers(1, COUNT)];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: COUNT, env: { CATALOGUE_CACHE_ENTRIES: '0' } });
  // every page from the search index (decision 096); search-index-fallback.test.ts pages
  // through the statements while it is not built
  await searchIndexBuilt(t.app);
}, 120_000);
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url });

const pageThrough = (query: URLSearchParams, limit: number) => pageThroughApp(t.app, query, limit);

/** A tag filter's value most generated teachers have. */
function commonest(filter: TagFilter): string {
  const counts = new Map<string, number>();
  for (const g of generated) for (const value of valuesOf(g, filter)) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
}

/** The text a search reads, as the model sees it: accents and case gone. */
const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();
const documentWords = (g: Generated) =>
  plain([g.name, g.surname, ...g.languages, g.lesson_info, ...g.conditions, g.experience].join(' ')).split(
    /[^\p{L}\p{N}]+/u,
  );

describe('orders × filters', () => {
  // From the registry: every order, every value of every tag filter (and one nobody has),
  // every kind of price range; pairwise — each value of each filter with each value of every
  // other filter and with each order, in ~(the two largest dimensions' product) queries
  // instead of all of their combinations.
  const sorts = Object.keys(ORDER) as (keyof typeof ORDER)[];
  const values = tagValues(generated);
  const rows = pairwise<unknown>([sorts, ...TAG_FILTERS.map((filter) => values[filter]), PRICE_RANGES]);

  it('every order × filter value, pairwise: pages each match exactly once, in order, with the total', async () => {
    // every page from the index: no list statement runs
    const statement = vi.spyOn(t.db, 'statement');
    let matched = 0;
    for (const [i, row] of rows.entries()) {
      const sort = row[0] as keyof typeof ORDER;
      const [min, max] = row.at(-1) as [number | undefined, number | undefined];
      const filters: ModelFilters = { min, max };
      TAG_FILTERS.forEach((filter, k) => (filters[filter] = row[k + 1] as string | undefined));
      const expected = generated
        .filter((g) => passes(g, filters))
        .sort(ORDER[sort])
        .map((g) => g.id);
      const query = filterQuery(filters);
      // rating is the default order: named in half of the queries
      if (sort !== 'rating' || i % 2 === 0) query.set('sort', sort);
      // pages of a third of the matches (at least 2): every query crosses two cursors, none pages 4 at a time through 100
      const { ids, totals } = await pageThrough(query, Math.max(2, Math.ceil(expected.length / 3)));
      expect(ids, `${query}`).toEqual(expected);
      expect(new Set(totals), `${query}`).toEqual(new Set([expected.length]));
      if (expected.length > 0) matched += 1;
    }
    // the covering is pairwise: each value of each dimension with each of another's
    for (const [d, dimension] of [sorts, ...TAG_FILTERS.map((filter) => values[filter]), PRICE_RANGES].entries()) {
      expect(new Set(rows.map((row) => row[d])).size, `dimension ${d}`).toBe(dimension.length);
    }
    expect(rows.length).toBeLessThan(sorts.length * TAG_FILTERS.reduce((n, filter) => n * values[filter].length, PRICE_RANGES.length));
    // a good part of the queries find someone (most pairs of a language and a country find no one)
    expect(matched).toBeGreaterThan(60);
    expect(listStatementsRun(statement)).toBe(0);
  }, 120_000);

  it('a country filter keeps only the teachers who live there, and one nobody lives in matches nothing', async () => {
    const countries = values.country.filter((c): c is string => c !== undefined && c !== NOBODY);
    expect(countries.length).toBeGreaterThan(5);
    const country = [...countries].sort((a, b) => generated.filter((g) => g.country === b).length - generated.filter((g) => g.country === a).length)[0] as string;
    const expected = generated
      .filter((g) => g.country === country)
      .sort(ORDER.rating)
      .map((g) => g.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(expected.length).toBeLessThan(COUNT / 2);
    const { ids, items, totals } = await pageThrough(new URLSearchParams({ country: country.toUpperCase() }), 3);
    expect(ids).toEqual(expected);
    expect(items.every((item) => item.country === country)).toBe(true);
    expect(new Set(totals)).toEqual(new Set([expected.length]));
    expect((await get(`/api/teachers?country=${NOBODY}`)).json()).toEqual({ items: [], nextCursor: null, total: 0 });
    // with a search: the search's matches who live there
    const lesson = generated.filter((g) => g.country === country && documentWords(g).some((w) => w.startsWith('lesson')));
    const searched = await pageThrough(new URLSearchParams({ q: 'lesson', country }), 4);
    expect(searched.ids.sort()).toEqual(lesson.map((g) => g.id).sort());
  });

  it("the original's price means price_max; with both, the smaller wins", async () => {
    const under = (max: number) =>
      generated
        .filter((g) => g.price_per_hour <= max)
        .sort(ORDER.rating)
        .map((g) => g.id);
    expect((await pageThrough(new URLSearchParams('price=30'), 50)).ids).toEqual(under(30));
    expect((await pageThrough(new URLSearchParams('price=30&price_max=45'), 50)).ids).toEqual(under(30));
    expect((await pageThrough(new URLSearchParams('price=45&price_max=30'), 50)).ids).toEqual(under(30));
  });

  it('language and level match whatever their case', async () => {
    const expected = generated
      .filter((g) => g.languages.includes('French') && g.levels.includes('B1 Intermediate'))
      .sort(ORDER.rating)
      .map((g) => g.id);
    expect(expected.length).toBeGreaterThan(0);
    const { ids, totals } = await pageThrough(new URLSearchParams('language=fRENCH&level=b1%20intermediate'), 50);
    expect(ids).toEqual(expected);
    expect(totals).toEqual([expected.length]);
  });
});

describe('search (q)', () => {
  const named = (first: string) => generated.filter((g) => g.name === first).map((g) => g.id);

  it('finds a name without its accent, in any case', async () => {
    const chloes = named('Chloé');
    expect(chloes.length).toBeGreaterThan(0);
    for (const q of ['chloe', 'CHLOÉ', 'Chlo']) {
      const { ids, totals } = await pageThrough(new URLSearchParams({ q }), 50);
      expect(ids.sort(), q).toEqual(
        generated
          .filter((g) => documentWords(g).some((w) => w.startsWith(plain(q))))
          .map((g) => g.id)
          .sort(),
      );
      expect(ids).toEqual(expect.arrayContaining(chloes));
      expect(totals).toEqual([ids.length]);
    }
  });

  it('finds a misspelt surname, and not the other teachers', async () => {
    const schmidts = generated.filter((g) => g.surname === 'Schmidt').map((g) => g.id);
    expect(schmidts.length).toBeGreaterThan(0);
    const { ids } = await pageThrough(new URLSearchParams({ q: 'schmit' }), 50);
    expect(ids.sort()).toEqual(schmidts.sort());
  });

  it('finds a word of the lesson info, and only the teachers whose text has it', async () => {
    const expected = generated.filter((g) => documentWords(g).includes('pronunciation')).map((g) => g.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(COUNT);
    const { ids, totals } = await pageThrough(new URLSearchParams({ q: 'pronunciation' }), 7);
    expect(ids.sort()).toEqual(expected.sort());
    expect(new Set(totals)).toEqual(new Set([expected.length]));
  });

  it('every word is required', async () => {
    const expected = generated
      .filter((g) => documentWords(g).includes('pronunciation') && g.languages.includes('Spanish'))
      .map((g) => g.id);
    const { ids } = await pageThrough(new URLSearchParams({ q: 'pronunciation spanish' }), 50);
    expect(ids.sort()).toEqual(expected.sort());
  });

  it('relevance first: the name matches come before teachers who only mention the word', async () => {
    const { ids } = await pageThrough(new URLSearchParams({ q: 'chloe' }), 3);
    const chloes = new Set(named('Chloé'));
    expect(ids.slice(0, chloes.size).every((id) => chloes.has(id))).toBe(true);
  });

  it.each(Object.keys(ORDER) as (keyof typeof ORDER)[])(
    'in the %s order with filters: each match once, in order, with the total',
    async (sort) => {
      const match = (g: Generated) => documentWords(g).some((w) => w.startsWith('lesson'));
      // no filter, the price range, and each tag filter of the registry alone (its commonest value, in lower case)
      for (const filters of [{}, { min: 25, max: 45 }, ...TAG_FILTERS.map((filter) => ({ [filter]: commonest(filter) }))] as ModelFilters[]) {
        const expected = generated
          .filter((g) => match(g) && passes(g, filters))
          .sort(ORDER[sort])
          .map((g) => g.id);
        const query = filterQuery(filters);
        for (const filter of TAG_FILTERS) if (query.has(filter)) query.set(filter, (query.get(filter) as string).toLowerCase());
        const extra = `&${query}`;
        const { ids, totals } = await pageThrough(new URLSearchParams(`q=lesson&sort=${sort}${extra}`), 6);
        expect(ids, extra).toEqual(expected);
        expect(new Set(totals), extra).toEqual(new Set([expected.length]));
      }
    },
  );

  it('a search that matches nothing: an empty page with total 0', async () => {
    expect((await get('/api/teachers?q=zzzzqqqq')).json()).toEqual({ items: [], nextCursor: null, total: 0 });
    expect((await get('/api/teachers?q=%21%21%21')).json()).toEqual({ items: [], nextCursor: null, total: 0 });
  });

  it('an empty or blank q is no search', async () => {
    const plainPage = (await get('/api/teachers')).json<unknown>();
    expect((await get('/api/teachers?q=')).json()).toEqual(plainPage);
    expect((await get('/api/teachers?q=%20%20')).json()).toEqual(plainPage);
  });
});

describe('cursors', () => {
  it('a cursor is refused under another order or other filters (400 BAD_CURSOR), accepted under its own', async () => {
    const first = teachersPageSchema.parse((await get('/api/teachers?sort=price-asc&limit=3')).json());
    const cursor = encodeURIComponent(first.nextCursor as string);
    expect((await get(`/api/teachers?sort=price-asc&limit=3&cursor=${cursor}`)).statusCode).toBe(200);
    for (const other of [
      'sort=price-desc',
      '',
      'sort=lessons',
      'sort=price-asc&price_min=20',
      'sort=price-asc&language=English',
      'sort=price-asc&country=Canada',
      'sort=price-asc&q=lesson',
    ]) {
      const res = await get(`/api/teachers?${other}&limit=3&cursor=${cursor}`);
      expect(res.statusCode, other).toBe(400);
      expect(res.json(), other).toMatchObject({ error: { code: 'BAD_CURSOR', fields: { cursor: expect.any(String) } } });
    }
  });
});

describe('bad parameters: 400 naming the field', () => {
  it.each([
    ['sort=cheapest', 'sort'],
    ['sort=relevance', 'sort'],
    ['price_min=40&price_max=30', 'price_min'],
    ['price_min=40&price=30', 'price_min'],
    ['price_min=-1', 'price_min'],
    ['price_max=2.5', 'price_max'],
    ['price=25.5', 'price'],
    ['price_max=abc', 'price_max'],
    ['price_min=999999', 'price_min'],
    [`q=${'a'.repeat(101)}`, 'q'],
    ['level=Z9', 'level'],
    ['country=France1', 'country'],
    [`country=${'a'.repeat(61)}`, 'country'],
    ['country=%00France', 'country'],
    ['country=', 'country'],
    ['q=a%00b', 'q'],
    ['q=%07bell', 'q'],
  ])('%s', async (query, field) => {
    for (const path of ['/api/teachers', '/api/teachers/facets']) {
      if (path.endsWith('facets') && query.startsWith('sort')) continue;
      const res = await get(`${path}?${query}`);
      expect(res.statusCode, `${path}?${query}`).toBe(400);
      const body = res.json<{ error: { code: string; fields: Record<string, string> } }>();
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.error.fields)).toEqual([field]);
    }
  });

  it('a q of exactly 100 characters is a search', async () => {
    const res = await get(`/api/teachers?q=${'a'.repeat(100)}`);
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/teachers/facets with a query', () => {
  const countOf = (match: (g: Generated) => boolean) => generated.filter(match).length;

  async function facets(query: string): Promise<Facets> {
    const res = await get(`/api/teachers/facets?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return facetsSchema.strict().parse(res.json());
  }

  const country = () => commonest('country');
  it.each([
    ['', () => true, {}],
    ['language=French', () => true, { language: 'French' }],
    ['level=B2%20Upper-Intermediate', () => true, { level: 'B2 Upper-Intermediate' }],
    ['language=german&level=a1%20beginner', () => true, { language: 'German', level: 'A1 Beginner' }],
    ['price_min=25&price_max=40', () => true, { min: 25, max: 40 }],
    ['price=30&language=English', () => true, { max: 30, language: 'English' }],
    ['country=<commonest>&level=B1%20Intermediate', () => true, { country: '<commonest>', level: 'B1 Intermediate' }],
    ['q=pronunciation&level=C1%20Advanced', (g: Generated) => documentWords(g).includes('pronunciation'), { level: 'C1 Advanced' }],
    ['q=chloe&price_max=40&language=English', (g: Generated) => g.name === 'Chloé', { max: 40, language: 'English' }],
    ['q=lesson&country=<commonest>', (g: Generated) => documentWords(g).some((w) => w.startsWith('lesson')), { country: '<commonest>' }],
  ] as [string, (g: Generated) => boolean, ModelFilters][])('%s: each count is the data counted with the other filters', async (query, base, given) => {
    const filters = { ...given, ...(given.country ? { country: country() } : {}) };
    const result = await facets(query.replace('<commonest>', encodeURIComponent(country())));
    // each tag filter's count of a value: the query's other filters, that value instead of the query's own
    for (const filter of TAG_FILTERS) {
      const present = filter === 'language' ? result.languages : filter === 'level' ? result.levels : result.countries;
      expect(present.length, filter).toBeGreaterThan(0);
      for (const value of present) {
        expect(result.counts[facetOf(filter)][value], `${filter} ${value}`).toBe(countOf((g) => base(g) && passes(g, { ...filters, [filter]: value })));
      }
    }
    expect(result.total).toBe(countOf((g) => base(g) && passes(g, filters)));
    expect(result.languages).toEqual([...new Set(generated.flatMap((g) => g.languages))].sort((a, b) => a.localeCompare(b, 'en')));
    expect(result.countries).toEqual(
      [...new Set(generated.flatMap((g) => (g.country === null ? [] : [g.country])))].sort((a, b) => a.localeCompare(b, 'en')),
    );
  });

  it.each(['', '&q=lesson'])('a language no teacher speaks%s: every language still counted, the total 0', async (q) => {
    const result = await facets(`language=Klingon${q}`);
    expect(result.total).toBe(0);
    const lesson = (g: Generated) => !q || documentWords(g).some((w) => w.startsWith('lesson'));
    expect(result.counts.languages.English).toBe(countOf((g) => lesson(g) && g.languages.includes('English')));
    expect(Object.values(result.counts.levels).every((n) => n === 0)).toBe(true);
  });
});
