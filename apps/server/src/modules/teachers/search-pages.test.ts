import { teachersPageSchema } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGenerated } from '../../catalogue/seed.js';
import { createTestApp, type TestApp } from '../../test/app.js';

// A search's following pages take its total from the cursor (decision 042): counted once
// for the first page, trusted while the catalogue version is the one it was counted at.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 60 });
}, 120_000);
afterAll(() => t.close());

async function page(query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/teachers?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return teachersPageSchema.strict().parse(res.json());
}

describe("a search's following pages", () => {
  it.each(['rating', 'relevance'])(
    '%s: carry the first page’s total; after a catalogue change they count again',
    async (sort) => {
      const first = await page(`q=lesson&sort=${sort}&limit=5`);
      expect(first.total).toBeGreaterThan(10);
      const cursor = encodeURIComponent(first.nextCursor as string);
      expect((await page(`q=lesson&sort=${sort}&limit=5&cursor=${cursor}`)).total).toBe(first.total);

      await seedGenerated(t.db, sort === 'rating' ? 80 : 100); // 20 more teachers, a new catalogue version
      const now = (await page(`q=lesson&sort=${sort}&limit=5`)).total;
      expect(now).toBeGreaterThan(first.total);
      expect((await page(`q=lesson&sort=${sort}&limit=5&cursor=${cursor}`)).total).toBe(now);
    },
  );
});
