import { LEVELS, teachersPageSchema } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTeachers } from '../profiles/generator.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { CardCache, CARDS_STATEMENT, createTeachersRepository } from './teachers-repository.js';

// The repository answers all list calls of one event-loop turn with one statement
// (LIST_STATEMENT). The response cache is off here, so every request reaches it.
const COUNT = 60;
const generated = [...generateTeachers(1, COUNT)];
const byOrder = (a: { rating: number; id: string }, b: { rating: number; id: string }) =>
  b.rating - a.rating || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: COUNT, env: { CATALOGUE_CACHE_ENTRIES: '0' } });
});
afterAll(async () => {
  await t.close();
});

describe('list calls made at the same moment', () => {
  it('each get their own page, filters, cursor and limit', async () => {
    const language = generated[0]?.languages[0] ?? 'English';
    const level = LEVELS[2];
    const cases: { query: string; match: (g: (typeof generated)[number]) => boolean; limit: number }[] = [
      { query: '', match: () => true, limit: 4 },
      { query: `language=${encodeURIComponent(language)}`, match: (g) => g.languages.includes(language), limit: 4 },
      { query: `level=${encodeURIComponent(level)}&limit=3`, match: (g) => g.levels.includes(level), limit: 3 },
      { query: 'price=30&limit=7', match: (g) => g.price_per_hour <= 30, limit: 7 },
      {
        query: `language=${encodeURIComponent(language)}&level=${encodeURIComponent(level)}&price=45&limit=2`,
        match: (g) => g.languages.includes(language) && g.levels.includes(level) && g.price_per_hour <= 45,
        limit: 2,
      },
      { query: 'language=Klingon', match: () => false, limit: 4 },
      { query: 'limit=50', match: () => true, limit: 50 },
    ];
    const first = await Promise.all(cases.map((c) => t.app.inject({ method: 'GET', url: `/api/teachers?${c.query}` })));
    const pages = first.map((res) => teachersPageSchema.parse(res.json()));
    cases.forEach((c, i) => {
      const expected = generated.filter(c.match).sort(byOrder).map((g) => g.id);
      expect(pages[i]?.items.map((item) => item.id), c.query).toEqual(expected.slice(0, c.limit));
      expect(pages[i]?.nextCursor === null, c.query).toBe(expected.length <= c.limit);
    });

    // the next pages of all of them, again at once, through their cursors
    const more = cases.map((c, i) => ({ c, cursor: pages[i]?.nextCursor })).filter((x) => x.cursor);
    const second = await Promise.all(
      more.map(({ c, cursor }) =>
        t.app.inject({ method: 'GET', url: `/api/teachers?${c.query}&cursor=${encodeURIComponent(cursor ?? '')}` }),
      ),
    );
    second.forEach((res, i) => {
      const { c } = more[i] as (typeof more)[number];
      const expected = generated.filter(c.match).sort(byOrder).map((g) => g.id);
      expect(teachersPageSchema.parse(res.json()).items.map((item) => item.id), c.query).toEqual(
        expected.slice(c.limit, 2 * c.limit),
      );
    });
  });
});

describe('cards read at the same moment', () => {
  it('are one statement, and each page gets its own cards (those kept, those read, a teacher gone)', async () => {
    const repository = createTeachersRepository(t.db);
    const ids = [...generated].sort(byOrder).map((g) => g.id);
    const kept = new CardCache(1 << 20);
    const [warm] = (await repository.cards([{ value: 0, id: ids[0] as string }], 1, kept)).itemsJson.match(/"id":"[^"]+"/) ?? [];
    expect(warm).toBe(`"id":"${ids[0]}"`);
    const statement = vi.spyOn(t.db, 'statement');
    const pages = [
      [ids[0], ids[1], ids[2]], // the first kept, two read
      [ids[2], 'gone', ids[3]], // one shared with the page above, one no teacher has
      [ids[4], ids[5], ids[6]], // a page follows (limit 2 of 3 positions)
    ].map((page) => page.map((id) => ({ value: 0, id: id as string })));
    const read = await Promise.all(pages.map((positions) => repository.cards(positions, 2, kept)));
    const shown = read.map((page) => (JSON.parse(page.itemsJson) as { id: string }[]).map((card) => card.id));
    expect(shown).toEqual([[ids[0], ids[1]], [ids[2]], [ids[4], ids[5]]]);
    // a page with more positions than its limit continues after the last shown position (a gone teacher left out)
    expect(read.map((page) => page.next?.id ?? null)).toEqual([ids[1], 'gone', ids[5]]);
    expect(statement.mock.calls.filter(([text]) => text === CARDS_STATEMENT)).toHaveLength(1);
    expect(kept.size.cards).toBe(5);
  });
});
