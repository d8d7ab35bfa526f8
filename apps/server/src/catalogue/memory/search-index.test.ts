import { describe, expect, it, vi } from 'vitest';
import {
  parseTerms,
  SearchIndexBuilder,
  type IndexedTeacher,
  type NameMatch,
  type PageOrder,
  type SearchTerm,
} from './search-index.js';
import { facetOf, TAG_FILTERS, valuesOf, type CountFilters } from '../model/registry.js';

/** An index of these teachers, added as the repository adds each slice's. */
function indexOf(teachers: readonly IndexedTeacher[]) {
  const builder = new SearchIndexBuilder();
  for (const teacher of teachers) builder.add(teacher);
  return builder.build();
}

describe('parseTerms: the tsquery text PostgreSQL gives back', () => {
  it.each([
    ['', []],
    ["'chloe':*", [{ lexeme: 'chloe', prefix: true }]],
    ["'pronun':* & 'es'", [{ lexeme: 'pronun', prefix: true }, { lexeme: 'es', prefix: false }]],
    ["'o''neil':*", [{ lexeme: "o'neil", prefix: true }]],
    ["'mandarin':* & 'chinese':* & 'a'", [
      { lexeme: 'mandarin', prefix: true },
      { lexeme: 'chinese', prefix: true },
      { lexeme: 'a', prefix: false },
    ]],
    // a widened word (decision 108): alone, or with others in parentheses
    ["'germn':* | 'german' | 'germany'", [
      { lexeme: 'germn', prefix: true, alternatives: [{ lexeme: 'german', prefix: false }, { lexeme: 'germany', prefix: false }] },
    ]],
    ["'x':* & ( 'frensh':* | 'french' ) & ( 'gramar':* | 'grammar' )", [
      { lexeme: 'x', prefix: true },
      { lexeme: 'frensh', prefix: true, alternatives: [{ lexeme: 'french', prefix: false }] },
      { lexeme: 'gramar', prefix: true, alternatives: [{ lexeme: 'grammar', prefix: false }] },
    ]],
  ])('%j', (text, terms) => {
    expect(parseTerms(text)).toEqual(terms);
  });

  it.each([
    "'ji' <-> 'woo':*", // a phrase (a word PostgreSQL's parser split)
    "'a' | 'b' & 'c'",
    "'c' & 'a' | 'b'",
    "( 'a' ) & 'b'",
    "( 'a' | 'b' & 'c' )",
    "( 'a' | 'b'",
    "!'a'",
    "'a':*A",
    "'a':* &",
    "'a' & ",
    "'unterminated",
    "'back\\\\slash'",
    'bare',
    "( 'a' & 'b' )",
  ])('%j is left to the statements (null)', (text) => {
    expect(parseTerms(text)).toBeNull();
  });

  it('runs in linear time on a long hostile text', () => {
    const text = `${"'a' & ".repeat(50_000)}'a`;
    const start = performance.now();
    expect(parseTerms(text)).toBeNull();
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});

/** A small random catalogue, the same every run. */
function catalogue(count: number): IndexedTeacher[] {
  let state = 42;
  const random = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
  const words = ['lesson', 'lessons', 'les', 'grammar', 'gram', 'pronunciation', 'exam', 'examples', 'a', 'é', 'zz'];
  const languages = ['English', 'French', 'German'];
  const levels = ['A1 Beginner', 'B1 Intermediate', 'C1 Advanced'];
  const names = ['ana silva', 'ana li', 'mei wang', 'lea dubois', 'omar haddad', 'zofia nowak'];
  const countries = ['France', 'Japan', 'Canada', null];
  return Array.from({ length: count }, (_, i) => ({
    id: `t${String(i).padStart(3, '0')}`,
    name: pick(names),
    languages: [...new Set([pick(languages), pick(languages)])],
    levels: [...new Set([pick(levels), pick(levels)])],
    country: pick(countries),
    price: 10 + Math.floor(random() * 40),
    rating: pick([4.5, 4.75, 4.8, 5]),
    lessons: Math.floor(random() * 30),
    // common words (a bit set each) and rare ones, `les0`…`les49` with 6 teachers each (ordinals)
    lexemes: [...new Set([...Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick(words)), `les${i % 50}`])],
  }));
}

const teachers = catalogue(300);
const index = indexOf(teachers);

/** What PostgreSQL's `document @@ query` says, spelt out. */
const documentMatches = (teacher: IndexedTeacher, terms: readonly SearchTerm[]) =>
  terms.length > 0 &&
  terms.every((term) =>
    [term, ...(term.alternatives ?? [])].some((one) =>
      teacher.lexemes.some((l) => (one.prefix ? l.startsWith(one.lexeme) : l === one.lexeme)),
    ),
  );

type Filters = CountFilters;
/** The model of the filters: each tag filter of the registry has its value among the teacher's, the price in range. */
const passes = (teacher: IndexedTeacher, f: Filters) =>
  TAG_FILTERS.every((filter) => f[filter] === undefined || valuesOf(teacher, filter).includes(f[filter] as string)) &&
  teacher.price >= f.min &&
  teacher.price <= f.max;

const TERMS: SearchTerm[][] = [
  [],
  [{ lexeme: 'les', prefix: true }],
  [{ lexeme: 'les', prefix: false }],
  [{ lexeme: 'lesson', prefix: true }, { lexeme: 'gram', prefix: true }],
  [{ lexeme: 'exam', prefix: false }],
  [{ lexeme: 'é', prefix: true }],
  [{ lexeme: 'a', prefix: false }, { lexeme: 'zz', prefix: false }],
  [{ lexeme: 'nothing', prefix: true }],
  [{ lexeme: 'les1', prefix: true }],
  [{ lexeme: 'les1', prefix: false }],
  [{ lexeme: 'les4', prefix: true }, { lexeme: 'gram', prefix: true }],
  [{ lexeme: '', prefix: true }],
  // widened words (decision 108): any of the alternatives
  [{ lexeme: 'lesn', prefix: true, alternatives: [{ lexeme: 'les1', prefix: false }, { lexeme: 'exam', prefix: false }] }],
  [{ lexeme: 'gram', prefix: true }, { lexeme: 'nothing', prefix: true, alternatives: [{ lexeme: 'les4', prefix: true }] }],
];
const FILTERS: Filters[] = [
  { min: -Infinity, max: Infinity },
  { language: 'French', min: -Infinity, max: Infinity },
  { level: 'C1 Advanced', min: 20, max: Infinity },
  { language: 'German', level: 'A1 Beginner', min: 15, max: 30 },
  { language: 'Klingon', min: -Infinity, max: Infinity },
  { min: 30, max: 20 },
  { country: 'Japan', min: -Infinity, max: Infinity },
  { country: 'Canada', language: 'English', level: 'B1 Intermediate', min: 20, max: 45 },
  { country: 'Atlantis', min: -Infinity, max: Infinity },
];
/**
 * Name matches: names each shared by ~50 teachers (some whose documents match too, some
 * not), two with the same score, one name the index never saw.
 */
const NAMES: NameMatch[][] = [
  [],
  [
    { name: 'ana silva', score: 1 },
    { name: 'mei wang', score: 0.6666666865348816 },
    { name: 'ana li', score: 0.6666666865348816 },
    { name: 'omar haddad', score: 0.75 },
    { name: 'no such name', score: 0.9 },
  ],
];
/** The orders by value, each with its column as the model reads it. */
const VALUE_ORDERS: [PageOrder, (t: IndexedTeacher) => number][] = [
  [{ column: 'rating', direction: 'desc' }, (t) => t.rating],
  [{ column: 'price_per_hour', direction: 'asc' }, (t) => t.price],
  [{ column: 'price_per_hour', direction: 'desc' }, (t) => t.price],
  [{ column: 'lessons_done', direction: 'desc' }, (t) => t.lessons],
];

const named = (teacher: IndexedTeacher, names: readonly NameMatch[]) => names.some((n) => n.name === teacher.name);

describe('SearchIndex', () => {
  it('counts, for every terms × filters × name matches, what the data holds', () => {
    let withNamesAlone = 0;
    let withNamesInDocs = 0;
    for (const terms of TERMS) {
      for (const filters of FILTERS) {
        for (const names of NAMES) {
          const inDocs = teachers.filter((t) => passes(t, filters) && documentMatches(t, terms));
          const namesAlone = teachers.filter(
            (t) => named(t, names) && passes(t, filters) && !documentMatches(t, terms),
          );
          const namesInDocs = inDocs.filter((t) => named(t, names));
          const label = JSON.stringify({ terms, filters, names });
          if (namesAlone.length > 0) withNamesAlone += 1;
          if (namesInDocs.length > 0) withNamesInDocs += 1;
          expect(index.counts(terms, names, filters, false), label).toEqual({
            total: inDocs.length + namesAlone.length,
            walkable: inDocs.length + namesAlone.length,
          });
          expect(index.counts(terms, names, filters, true), label).toEqual({
            total: inDocs.length + namesAlone.length,
            walkable: inDocs.length - namesInDocs.length,
          });
        }
      }
    }
    // the model's cases have name matches both outside and inside the document matches
    expect(withNamesAlone).toBeGreaterThan(10);
    expect(withNamesInDocs).toBeGreaterThan(10);
  });

  it('facet counts: each tag filter’s value with the other filters, and the total', () => {
    const values = {
      language: ['English', 'French', 'German', 'Italian'],
      level: ['A1 Beginner', 'B1 Intermediate', 'C1 Advanced'],
      country: ['France', 'Japan', 'Canada', 'Peru'],
    };
    for (const terms of TERMS) {
      for (const filters of FILTERS) {
        const names = NAMES[1] as NameMatch[];
        const match = (t: IndexedTeacher) => documentMatches(t, terms) || named(t, names);
        const count = (f: Filters) => teachers.filter((t) => match(t) && passes(t, f)).length;
        const facets = index.facets(terms, names, filters, { values });
        const label = JSON.stringify({ terms, filters });
        for (const filter of TAG_FILTERS) {
          for (const value of values[filter]) expect(facets[facetOf(filter)][value], `${label} ${value}`).toBe(count({ ...filters, [filter]: value }));
        }
        expect(facets.total, label).toBe(count(filters));
      }
    }
  });

  it('with more distinct prices than it keeps a set for each, the same counts (a price range read by its slice)', () => {
    const manyPrices = teachers.map((teacher, i) => ({ ...teacher, price: 10 + i * 0.25 }));
    const wide = indexOf(manyPrices);
    for (const terms of TERMS) {
      for (const filters of [...FILTERS, { min: 20.25, max: 60 }, { min: -Infinity, max: 10 }]) {
        const expected = manyPrices.filter((t) => passes(t, filters) && documentMatches(t, terms)).length;
        expect(wide.counts(terms, [], filters, false).total, JSON.stringify({ terms, filters })).toBe(expected);
      }
    }
  });

  it('an empty catalogue counts nothing', () => {
    const empty = indexOf([]);
    expect(empty.counts([{ lexeme: 'a', prefix: true }], [{ name: 'x', score: 1 }], { min: -Infinity, max: Infinity }, true)).toEqual({
      total: 0,
      walkable: 0,
    });
  });

  it('a relevance page among the name matches: score high to low, then id high to low, after the cursor, with the filters', () => {
    const names = NAMES[1] as NameMatch[];
    const scoreOf = (t: IndexedTeacher) => names.find((n) => n.name === t.name)?.score;
    for (const filters of FILTERS) {
      // the model: every name match passing the filters, in the search statements' order
      const all = teachers
        .filter((t) => scoreOf(t) !== undefined && passes(t, filters))
        .map((t) => ({ value: scoreOf(t) as number, id: t.id }))
        .sort((a, b) => b.value - a.value || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      const label = JSON.stringify(filters);
      expect(index.namePage(names, filters, null, 7), label).toEqual(all.slice(0, 7));
      expect(index.namePage(names, filters, null, 1000), label).toEqual(all);
      // from every position: what follows it (the ties within a score, and across the two equal scores' names)
      all.forEach((position, i) => {
        expect(index.namePage(names, filters, position, 5), `${label} after ${i}`).toEqual(all.slice(i + 1, i + 6));
      });
      if (filters.language === undefined && filters.country === undefined && filters.min < 20) expect(all.length, label).toBeGreaterThan(100);
    }
    expect(index.namePage([], FILTERS[0] as Filters, null, 5)).toEqual([]);
    expect(index.namePage(names, FILTERS[0] as Filters, { value: 1, id: 'unknown' }, 5)).toBeNull();
  });

  it('a page from memory: in each order, after every position, what the search statements’ order gives', () => {
    let checked = 0;
    for (const names of NAMES) {
      for (const terms of TERMS.slice(0, 9)) {
        for (const filters of FILTERS) {
          const matches = teachers.filter((t) => (documentMatches(t, terms) || named(t, names)) && passes(t, filters));
          for (const [order, value] of VALUE_ORDERS) {
            const sign = order.direction === 'desc' ? -1 : 1;
            const all = matches
              .map((t) => ({ value: value(t), id: t.id }))
              .sort((a, b) => sign * (a.value - b.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
            const label = JSON.stringify({ order, terms, filters, names: names.length });
            const start = { value: order.direction === 'desc' ? Infinity : -Infinity, id: '' };
            expect(index.page(terms, names, filters, order, start, 6), label).toEqual(all.slice(0, 6));
            for (let i = 0; i < all.length; i += 7) {
              expect(index.page(terms, names, filters, order, all[i] as { value: number; id: string }, 6), `${label} after ${i}`).toEqual(
                all.slice(i + 1, i + 7),
              );
              checked += 1;
            }
          }
          // relevance past the name matches: the document matches that are not name matches, by id from the top
          const rest = teachers
            .filter((t) => documentMatches(t, terms) && !named(t, names) && passes(t, filters))
            .map((t) => ({ value: 0, id: t.id }))
            .reverse();
          const relevance: PageOrder = { column: 'score', direction: 'desc' };
          expect(index.page(terms, names, filters, relevance, { value: 0, id: '' }, 40)).toEqual(rest.slice(0, 40));
          for (let i = 0; i < rest.length; i += 5) {
            expect(index.page(terms, names, filters, relevance, rest[i] as { value: number; id: string }, 40)).toEqual(
              rest.slice(i + 1, i + 41),
            );
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    const any = FILTERS[0] as Filters;
    const lesson: SearchTerm[] = [{ lexeme: 'les', prefix: true }];
    expect(index.page(lesson, [], any, { column: 'rating', direction: 'desc' }, { value: 5, id: 'unknown' }, 5)).toBeNull();
    expect(index.page(lesson, [], any, { column: 'score', direction: 'desc' }, { value: 0.7, id: 't001' }, 5)).toBeNull();
  });

  it('a page without a search: in each order, after every position (and after positions no teacher holds), what the list statements give, walking the order or reading the set', () => {
    const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    let checked = 0;
    for (const filters of FILTERS) {
      const matches = teachers.filter((t) => passes(t, filters));
      for (const [order, value] of VALUE_ORDERS) {
        const sign = order.direction === 'desc' ? -1 : 1;
        const all = matches.map((t) => ({ value: value(t), id: t.id })).sort((a, b) => sign * (a.value - b.value || byId(a.id, b.id)));
        /** the model: the entries after (value, id) in the order, as the keyset condition reads it */
        const after = (position: { value: number; id: string }) =>
          all.filter((e) => sign * (e.value - position.value || byId(e.id, position.id)) > 0);
        const start = { value: order.direction === 'desc' ? Infinity : -Infinity, id: '' };
        const positions = [
          start,
          ...all.filter((_, i) => i % 3 === 0),
          // a cursor whose teacher's value has changed since (the value is the cursor's), and a value between two
          { value: 4.6, id: 't150' },
          { value: 20.5, id: '' },
        ];
        // the count decides how the page is found (walk or set); whatever it says, the same page
        for (const count of [matches.length, 0, teachers.length]) {
          const label = JSON.stringify({ order, filters, count });
          for (const position of positions) {
            expect(index.listPage(filters, order, position, 5, count), `${label} after ${JSON.stringify(position)}`).toEqual(after(position).slice(0, 5));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(index.listPage(FILTERS[0] as Filters, { column: 'rating', direction: 'desc' }, { value: 5, id: 'unknown' }, 5, 300)).toBeNull();
    expect(index.listPage(FILTERS[0] as Filters, { column: 'score', direction: 'desc' }, { value: 5, id: '' }, 5, 300)).toBeNull();
  });

  it('a walk whose matches lie far from the cursor gives up and reads the set instead: the same page', () => {
    // 3,000 teachers; the 40 who speak Rare have the lowest rating, so a walk of the rating
    // order from the top passes every other teacher before the first of them
    const many = catalogue(3000).map((t, i) => ({
      ...t,
      id: `r${String(i).padStart(4, '0')}`, // in the order the index is given them, as PostgreSQL's
      languages: i % 75 === 0 ? ['Rare'] : t.languages, rating: i % 75 === 0 ? 1 : t.rating }));
    const big = indexOf(many);
    const inOrder = vi.spyOn(big as unknown as { inOrder: () => unknown }, 'inOrder');
    const filters = { language: 'Rare', min: -Infinity, max: Infinity };
    const order: PageOrder = { column: 'rating', direction: 'desc' };
    const expected = many
      .filter((t) => t.languages.includes('Rare'))
      .map((t) => ({ value: t.rating, id: t.id }))
      .sort((a, b) => (a.id < b.id ? 1 : -1));
    // told that every teacher matches, listPage walks first, then gives up
    expect(big.listPage(filters, order, { value: Infinity, id: '' }, 5, many.length)).toEqual(expected.slice(0, 5));
    expect(inOrder).toHaveBeenCalledTimes(1);
    // a walk within its steps does not
    inOrder.mockClear();
    expect(big.listPage({ min: -Infinity, max: Infinity }, order, { value: Infinity, id: '' }, 5, many.length)).toHaveLength(5);
    expect(inOrder).not.toHaveBeenCalled();
  });
});
