import { LEVELS, teachersPageSchema } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTeachers } from '../../catalogue/generator.js';
import { createTestApp, type TestApp } from '../../test/app.js';

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
