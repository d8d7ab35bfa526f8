import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { generateTeachers } from '../profiles/generator.js';
import { importEntries, parseExport } from '../profiles/import.js';
import { seedGenerated } from '../profiles/seed.js';
import type { Database } from '../../db/client.js';
import { testEnv } from '../../test/app.js';
import { SEARCH_INDEX_CHUNK_STATEMENT } from './teachers-repository.js';
import { FEED_STATEMENTS } from './catalogue-feed.js';
import { createTestDatabase, type TestDatabase } from '../../test/db.js';

// A page no teacher can be on (a language or level the catalogue lacks, a price below the
// cheapest) is answered without the list statement: such a page cannot stop its index scan
// early (a whole-index read on a large catalogue). The response cache is off. Statements
// counted: those of a page (the search index's build, which a list begins, is not one, nor
// the change feed's poll, which each request runs first here: decision 107).
const generated = [...generateTeachers(1, 30)];
let t: TestDatabase;
let app: FastifyInstance;
let statements = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  await seedGenerated(t.db, generated.length);
  const counting: Database = {
    ...t.db,
    statement: (text, params) => {
      if (text !== SEARCH_INDEX_CHUNK_STATEMENT && !FEED_STATEMENTS.has(text)) statements += 1;
      return t.db.statement(text, params);
    },
  };
  app = await buildApp({ env: testEnv({ CATALOGUE_CACHE_ENTRIES: '0' }), db: counting, catalogueCacheCheckMs: 0 });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.drop();
});

const list = async (query: string) => {
  const before = statements;
  const res = await app.inject({ method: 'GET', url: `/api/teachers?${query}` });
  expect(res.statusCode).toBe(200);
  return { page: res.json<{ items: { id: string }[]; nextCursor: string | null; total: number }>(), ran: statements - before };
};

describe('filters no teacher can match', () => {
  const cheapest = Math.min(...generated.map((g) => g.price_per_hour));
  const language = generated[0]?.languages[0] as string;

  it.each([
    ['a language no teacher speaks', 'language=Klingon'],
    ['a price below the cheapest teacher', `price=${cheapest - 1}`],
    ['an unknown language with real level and price', `language=Klingon&level=${encodeURIComponent('B1 Intermediate')}&price=60`],
    ['a price range above the dearest teacher', `price_min=${Math.max(...generated.map((g) => g.price_per_hour)) + 1}`],
    ['a price range between two price steps', `price_min=${cheapest + 1}&price_max=${cheapest + 2}`],
  ])('%s: an empty page without the list statement', async (_label, query) => {
    expect(await list(query)).toEqual({ page: { items: [], nextCursor: null, total: 0 }, ran: 0 });
  });

  it('real values still reach the database', async () => {
    const { page, ran } = await list(`language=${encodeURIComponent(language)}&price=${cheapest}`);
    expect(ran).toBe(1);
    const expected = generated.filter((g) => g.languages.includes(language) && g.price_per_hour <= cheapest);
    expect(page.items.length).toBe(Math.min(4, expected.length));
  });

  it('a language that an import brings is found at once (the known values follow the catalogue version)', async () => {
    const { entries } = parseExport([{ ...generated[0], id: 'klingon-1', languages: ['Klingon'] }]);
    await importEntries(t.db, entries);
    const { page, ran } = await list('language=Klingon');
    expect(ran).toBe(1);
    expect(page.items.map((item) => item.id)).toEqual(['klingon-1']);
  });
});
