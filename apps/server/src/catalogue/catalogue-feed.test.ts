import { LEVELS, teachersPageSchema } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/client.js';
import { testEnv } from '../test/app.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../test/db.js';
import {
  CatalogueWriteError,
  createTeacher,
  generateTeacher,
  generatedTeacherId,
  hideTeacher,
  rowsOf,
  seedGenerated,
  trimCatalogueFeed,
  unhideTeacher,
  updateTeacher,
  writeListRows,
} from './index.js';

// Decision 107: single-teacher writes reach every server through the change feed, and each
// applies them to its index, counts, cards and caches in place — no rebuild. The writes go
// through `db`; the servers read through their own connection pool on PostgreSQL (`db2`),
// so only the feed can tell them (on PGlite, one database in one process, they share it).

const COUNT = 40;
let base: TestDatabase;
let db2: Database;
let follower: FastifyInstance;
const others: FastifyInstance[] = [];

/** A server on `db`; with catalogueCacheCheckMs 0 each request reads the feed first (test/app.ts's setting). */
async function server(db: Database, options: { catalogueCacheCheckMs?: number; catalogueFeedPollMs?: number } = {}) {
  const app = await buildApp({ env: testEnv(process.env.FEED_TEST_LOG ? { LOG_LEVEL: 'error' } : {}), db, catalogueCacheCheckMs: 0, mailWorker: false, ...options });
  await app.ready();
  others.push(app);
  return app;
}

/** Its search index built (the first list starts the build). */
async function indexed(app: FastifyInstance): Promise<void> {
  await app.inject('/api/teachers?limit=1');
  await vi.waitFor(async () => expect(await app.searchIndexReady()).toBe(true), { timeout: 15_000, interval: 10 });
}

const get = async (app: FastifyInstance, url: string) => {
  const response = await app.inject(url);
  return { status: response.statusCode, body: response.body };
};
const page = async (app: FastifyInstance, url: string) => {
  const response = await app.inject(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return teachersPageSchema.parse(response.json());
};

const QUERIES = [
  '/api/teachers?limit=50',
  '/api/teachers?sort=price-asc&limit=50',
  '/api/teachers?sort=price-desc&limit=7',
  '/api/teachers?sort=lessons&limit=50',
  '/api/teachers?language=French&limit=50',
  '/api/teachers?language=Quenya&limit=50',
  `/api/teachers?level=${encodeURIComponent(LEVELS[0])}&price=40&limit=50`,
  '/api/teachers?q=lesson&limit=50',
  '/api/teachers?q=lesson&sort=rating&limit=5',
  '/api/teachers?q=storm&limit=50',
  '/api/teachers/facets',
  '/api/teachers/facets?q=grammar&level=' + encodeURIComponent(LEVELS[1]),
  '/api/stats',
  '/sitemap.xml',
];

/**
 * What `app` answers to QUERIES (its index, counts and caches at work) and to these teachers'
 * pages, against a server started now on the same database (all built from it).
 */
async function expectSameAsFresh(app: FastifyInstance, ids: readonly string[] = []): Promise<void> {
  const fresh = await server(db2);
  await indexed(fresh);
  for (const url of [...QUERIES, ...ids.map((id) => `/api/teachers/${id}`)]) {
    expect(await get(app, url), url).toEqual(await get(fresh, url));
  }
  await fresh.close();
}

beforeAll(async () => {
  base = await createTestDatabase();
  await seedGenerated(base.db, COUNT);
  db2 = testEngine === 'postgres' ? await openDatabase({ engine: 'postgres', url: base.url as string, max: 4 }) : base.db;
  // no polls of its own: it reads the feed at each request (and, on PGlite, when woken by a write)
  follower = await server(db2, { catalogueFeedPollMs: 0 });
  await indexed(follower);
});

afterAll(async () => {
  for (const app of others) await app.close();
  if (db2 !== base.db) await db2.close();
  await base.drop();
});

describe('single-teacher writes', () => {
  it('are validated by the contract and refused with the field named; reviews are never rewritten', async () => {
    const id = generatedTeacherId(3);
    const bad = await updateTeacher(base.db, id, { price_per_hour: -5 }).catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(CatalogueWriteError);
    expect(bad).toMatchObject({ code: 'INVALID', field: 'price_per_hour' });
    await expect(updateTeacher(base.db, id, { name: 'x', reviews: [] } as never)).rejects.toMatchObject({ code: 'INVALID' });
    await expect(updateTeacher(base.db, 'no-such-teacher', { name: 'Ann' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createTeacher(base.db, { ...generateTeacher(3) })).rejects.toMatchObject({ code: 'EXISTS', field: 'id' });
    await expect(createTeacher(base.db, { ...generateTeacher(900), languages: [] })).rejects.toMatchObject({ field: 'languages' });

    const reviews = () => base.db.rows<{ id: number }>(sql`select id from review where teacher_id = ${id} order by id`);
    const before = await reviews();
    expect(before.length).toBeGreaterThan(0);
    await updateTeacher(base.db, id, { lesson_info: 'Storm lessons, newly written.' });
    expect(await reviews()).toEqual(before); // the same rows, not new ones
    expect((await page(follower, '/api/teachers?q=storm&limit=50')).items.map((t) => t.id)).toContain(id);
  });
});

describe('the change feed', () => {
  it('shows an edit, a hide and a new teacher on another server, in list, search, counts, card, page and sitemap, without a rebuild', async () => {
    // every answer kept by the other server first: the changes must reach its caches
    const [edited, hidden] = [generatedTeacherId(5), generatedTeacherId(6)];
    for (const url of [...QUERIES, `/api/teachers/${edited}`, `/api/teachers/${hidden}`]) await follower.inject(url);
    const rebuilds = follower.catalogueFeed.rebuilds;
    const facets = async () => (await follower.inject('/api/teachers/facets')).json<{ total: number; counts: { languages: Record<string, number> } }>();
    const total = (await facets()).total;

    await updateTeacher(base.db, edited, { name: 'Xylophon', languages: ['Quenya'], price_per_hour: 9000 });
    expect((await page(follower, '/api/teachers?language=Quenya&limit=50')).items.map((t) => [t.id, t.name])).toEqual([[edited, 'Xylophon']]);
    expect((await page(follower, '/api/teachers?sort=price-desc&limit=1')).items[0]).toMatchObject({ id: edited, name: 'Xylophon' });
    expect((await page(follower, '/api/teachers?q=xylophon&limit=50')).items.map((t) => t.id)).toEqual([edited]);
    expect((await facets()).counts.languages.Quenya).toBe(1);
    expect((await follower.inject(`/api/teachers/${edited}`)).json()).toMatchObject({ name: 'Xylophon', price_per_hour: 9000 });

    await hideTeacher(base.db, hidden);
    // it was public: gone (410, decision 111); a draft or unknown id is 404
    expect((await follower.inject(`/api/teachers/${hidden}`)).statusCode).toBe(410);
    const all = await page(follower, '/api/teachers?limit=50');
    expect(all.total).toBe(total - 1);
    expect(all.items.map((t) => t.id)).not.toContain(hidden);
    expect((await facets()).total).toBe(total - 1);
    expect((await follower.inject('/sitemap.xml')).body).not.toContain(`/teachers/${hidden}<`);

    const created = await createTeacher(base.db, { ...generateTeacher(7), id: 't000006b', name: 'Brandnew' });
    expect((await page(follower, '/api/teachers?limit=50')).items.map((t) => t.id)).toContain(created);
    expect((await page(follower, '/api/teachers?q=brandnew&limit=50')).items.map((t) => t.id)).toEqual([created]);
    expect((await follower.inject(`/api/teachers/${created}`)).statusCode).toBe(200);
    expect((await follower.inject('/sitemap.xml')).body).toContain(`/teachers/${created}<`);
    expect((await facets()).total).toBe(total);

    expect(await unhideTeacher(base.db, hidden)).toBe(true);
    expect((await follower.inject(`/api/teachers/${hidden}`)).statusCode).toBe(200);
    expect(follower.catalogueFeed.rebuilds).toBe(rebuilds);
  });

  it('wakes a server that reads no feed per request and does not poll (PostgreSQL: NOTIFY; PGlite: in-process)', async () => {
    const polling = await server(db2, { catalogueCacheCheckMs: 1000, catalogueFeedPollMs: 60_000 });
    await polling.catalogueFeed.follower.catchUp(); // its first read: where the feed ends
    await polling.catalogueFeed.listening;
    const id = generatedTeacherId(9);
    expect((await polling.inject(`/api/teachers/${id}`)).statusCode).toBe(200); // kept
    await updateTeacher(base.db, id, { surname: 'Polled' });
    await vi.waitFor(async () => expect((await polling.inject(`/api/teachers/${id}`)).json()).toMatchObject({ surname: 'Polled' }), {
      timeout: 2000,
      interval: 10,
    });
  });

  it('a server that missed 1,000 changes catches up from the feed (and one started after them agrees)', async () => {
    const rebuilds = follower.catalogueFeed.rebuilds;
    // 1,000 changes of the 40 teachers, committed while the server reads nothing (one
    // transaction here, as many writers would leave them)
    await base.db.orm.transaction(async (tx) => {
      await tx.execute(sql`update teacher set lessons_done = lessons_done + 3, price_per_hour = price_per_hour + 1,
        rating = least(5, rating + 0.25), updated_at = now()`);
      const ids = await rowsOf<{ id: string }>(tx, sql`select id from teacher`);
      await writeListRows(tx, ids.map((row) => row.id));
      await tx.execute(sql`insert into catalogue_change (teacher_id)
        select t.id from generate_series(1, 25), teacher t order by 1`);
    });
    await expectSameAsFresh(follower);
    expect(follower.catalogueFeed.rebuilds).toBe(rebuilds);
  });

  it('a server whose position was trimmed from the feed rebuilds', async () => {
    const rebuilds = follower.catalogueFeed.rebuilds;
    const id = generatedTeacherId(11);
    // a change the server has not read (a write elsewhere, whose wake-up it never got), then trimmed
    await base.db.orm.transaction(async (tx) => {
      await tx.execute(sql`update teacher set name = 'Trimmed' where id = ${id}`);
      await writeListRows(tx, [id]);
      await tx.execute(sql`insert into catalogue_change (teacher_id) values (${id})`);
    });
    expect(await trimCatalogueFeed(base.db, 0)).toBeGreaterThan(0);
    // its position is behind what the feed holds: everything is dropped and built anew
    expect((await page(follower, '/api/teachers?q=trimmed&limit=50')).items.map((t) => t.id)).toEqual([id]);
    await indexed(follower);
    expect(follower.catalogueFeed.rebuilds).toBe(rebuilds + 1);
  });

  it('an index that has carried many changes is built anew in the background, nothing kept dropped', async () => {
    const rebuilds = follower.catalogueFeed.rebuilds;
    const kept = generatedTeacherId(14);
    const before = (await follower.inject(`/api/teachers/${kept}`)).json<{ surname: string }>();
    // a change the feed does not carry: the kept response must stay as it was
    await base.db.rows(sql`update teacher set surname = 'Unfed' where id = ${kept}`);
    follower.catalogueFeed.compactAfter = 2;
    try {
      const surnames = { 15: 'Quokka', 16: 'Narwhal', 17: 'Axolotl' };
      for (const [n, surname] of Object.entries(surnames)) await updateTeacher(base.db, generatedTeacherId(Number(n)), { surname });
      await follower.inject('/api/teachers?limit=1'); // reads the feed (PostgreSQL: or the NOTIFY did)
      await follower.catalogueFeed.compaction();
      expect(follower.catalogueFeed.rebuilds).toBe(rebuilds + 1);
      expect((await follower.inject(`/api/teachers/${kept}`)).json()).toEqual(before);
      expect((await page(follower, '/api/teachers?q=axolotl&limit=50')).items.map((t) => t.id)).toEqual([generatedTeacherId(17)]);
    } finally {
      follower.catalogueFeed.compactAfter = null;
      await base.db.rows(sql`update teacher set surname = ${before.surname} where id = ${kept}`);
    }
  });

  it('concurrent edits of one teacher: the last write whole, and every server agrees with the database', async () => {
    const rebuilds = follower.catalogueFeed.rebuilds;
    const id = generatedTeacherId(12);
    let state = 12;
    const random = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 2 ** 32;
    };
    const writes: Promise<unknown>[] = [];
    for (let k = 0; k < 24; k++) {
      // each write sets name, price and lessons together: a half-written record would mix them
      writes.push(updateTeacher(base.db, id, { name: `Storm${k}`, price_per_hour: 100 + k, lessons_done: k, languages: [k % 2 ? 'Quenya' : 'French'] }));
      const other = generatedTeacherId(1 + Math.floor(random() * COUNT));
      if (other === id) continue;
      if (random() < 0.2) writes.push(hideTeacher(base.db, other));
      else if (random() < 0.3) writes.push(unhideTeacher(base.db, other));
      else writes.push(updateTeacher(base.db, other, { rating: Math.round(random() * 20) / 4, price_per_hour: 10 + Math.floor(random() * 50) }));
      if (k % 6 === 0) writes.push(follower.inject('/api/teachers?limit=50'));
    }
    await Promise.all(writes);
    const [row] = await base.db.rows<{ name: string; price: number; lessons: number; card: string }>(
      sql`select t.name, t.price_per_hour as price, t.lessons_done as lessons, c.json as card
          from teacher t join teacher_card c on c.teacher_id = t.id where t.id = ${id}`,
    );
    expect(row?.name).toBe(`Storm${row?.lessons}`);
    expect(Number(row?.price)).toBe(100 + Number(row?.lessons));
    expect(JSON.parse(row?.card ?? '{}')).toMatchObject({ name: row?.name, lessons_done: row?.lessons });
    await expectSameAsFresh(follower, [id, generatedTeacherId(5), generatedTeacherId(6), 't000006b']);
    expect(follower.catalogueFeed.rebuilds).toBe(rebuilds);
  });
});
