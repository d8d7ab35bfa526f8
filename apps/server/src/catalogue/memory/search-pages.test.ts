import { teachersPageSchema } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGenerated } from '../profiles/seed.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { searchIndexBuilt } from '../../test/catalogue-model.js';

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

describe('a search page from memory, a teacher gone since the index was built', () => {
  it.each(['rating', 'relevance'])(
    '%s: the teacher is left out, and the page still leads on from the same place',
    async (sort) => {
      // an app of its own (the deletion must not reach the other order's case); nothing kept
      // (no response cache, no card cache): each page reads its cards anew
      const gone = await createTestApp({ seed: 60, env: { CATALOGUE_CACHE_ENTRIES: '0', CATALOGUE_CARD_MB: '0' } });
      try {
        await searchIndexBuilt(gone.app);
        const read = async (query: string) => {
          const res = await gone.app.inject({ method: 'GET', url: `/api/teachers?${query}` });
          expect(res.statusCode, res.body).toBe(200);
          return teachersPageSchema.strict().parse(res.json());
        };
        const before = await read(`q=lesson&sort=${sort}&limit=3`);
        const cursor = encodeURIComponent(before.nextCursor as string);
        const following = await read(`q=lesson&sort=${sort}&limit=3&cursor=${cursor}`);
        const [first, removed, third] = before.items;
        if (!first || !removed || !third) throw new Error('three teachers on the first page');
        // removed without a new catalogue version (as between a writer's commit and the next look at the version)
        await gone.db.rows(sql`delete from teacher where id = ${removed.id}`);

        const after = await read(`q=lesson&sort=${sort}&limit=3`);
        // its position still counts (the statements would have filled the page with the next match instead)
        expect(after.items.map((teacher) => teacher.id)).toEqual([first.id, third.id]);
        expect(after.nextCursor).toBe(before.nextCursor);
        expect(after.total).toBe(before.total);
        expect((await read(`q=lesson&sort=${sort}&limit=3&cursor=${cursor}`)).items).toEqual(following.items);
      } finally {
        await gone.close();
      }
    },
    120_000,
  );
});
