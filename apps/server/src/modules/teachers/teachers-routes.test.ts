import {
  LEVELS,
  PAGE_SIZE_DEFAULT,
  teacherSchema,
  teachersPageSchema,
  type Teacher,
  type TeachersPage,
} from '@learnlingo/contract';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTeachers, GENERATED_LANGUAGES, GENERATED_PRICES } from '../../catalogue/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { pageThrough as pageThroughApp } from '../../test/catalogue-model.js';
import { createCursorCodec, cursorScope } from '../../catalogue/index.js';

const COUNT = 100;
const generated = [...generateTeachers(1, COUNT)];
const byOrder = (a: { rating: number; id: string }, b: { rating: number; id: string }) =>
  b.rating - a.rating || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The cursor scope of the default query (rating order, no filter). */
const DEFAULT_SCOPE = cursorScope('rating', { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY });

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: COUNT });
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** Every page of a query, the teachers in the order served (catalogue-model's pageThrough). */
const pageThrough = async (query: URLSearchParams, limit: number) => (await pageThroughApp(t.app, query, limit)).items;

describe('GET /api/teachers', () => {
  it('returns the first page (4 by default) in rating desc, id desc order, reviews included', async () => {
    const res = await get('/api/teachers');
    expect(res.statusCode).toBe(200);
    const page = res.json<TeachersPage>();
    expect(page.items).toHaveLength(PAGE_SIZE_DEFAULT);
    expect(page.nextCursor).toEqual(expect.any(String));
    const expected = [...generated].sort(byOrder).slice(0, PAGE_SIZE_DEFAULT);
    expect(page.items.map((i) => i.id)).toEqual(expected.map((e) => e.id));
    for (const item of page.items) expect(teacherSchema.strict().parse(item)).toEqual(item);
    const first = expected[0];
    expect(page.items[0]?.reviews).toEqual(first?.reviews);
    // whole objects, field for field (numbers as numbers, arrays, reviews in order)
    expect(page.items).toEqual(expected);
    expect(teachersPageSchema.strict().parse(page)).toEqual(page);
  });

  it('returns every teacher exactly as generated, field for field', async () => {
    const all = await pageThrough(new URLSearchParams(), 50);
    expect(all).toEqual([...generated].sort(byOrder));
  });

  // Every language and every level with every `price` (the original's name for price_max), in
  // the default order; catalogue-query.test.ts crosses languages × levels × price ranges in
  // every order.
  it('pages through every language and every level at every price: each match exactly once, in order', async () => {
    const prices = [undefined, ...GENERATED_PRICES];
    const filters = [
      { language: undefined, level: undefined },
      ...GENERATED_LANGUAGES.map((language) => ({ language, level: undefined })),
      ...LEVELS.map((level) => ({ language: undefined, level })),
    ];
    let combinations = 0;
    for (const { language, level } of filters) {
      for (const price of prices) {
        const expected = generated
          .filter(
            (g) =>
              (language === undefined || g.languages.includes(language)) &&
              (level === undefined || g.levels.includes(level)) &&
              (price === undefined || g.price_per_hour <= price),
          )
          .sort(byOrder)
          .map((g) => g.id);
        const query = new URLSearchParams();
        if (language) query.set('language', language);
        if (level) query.set('level', level);
        if (price !== undefined) query.set('price', String(price));
        // small pages where there is a lot to page through, so every combination pages
        const limit = expected.length > 20 ? 9 : 2;
        const got = (await pageThrough(query, limit)).map((i) => i.id);
        expect(got, `filters ${query}`).toEqual(expected);
        combinations += 1;
      }
    }
    expect(combinations).toBe((1 + 14 + 6) * 11);
  }, 120_000);

  it('limit 50 returns 50; the last page has no cursor', async () => {
    const first = (await get('/api/teachers?limit=50')).json<TeachersPage>();
    expect(first.items).toHaveLength(50);
    const second = (await get(`/api/teachers?limit=50&cursor=${first.nextCursor}`)).json<TeachersPage>();
    expect(second.items).toHaveLength(50);
    expect(second.nextCursor).toBeNull();
  });

  it('an unknown language is an empty page, not an error', async () => {
    const res = await get('/api/teachers?language=Klingon');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ items: [], nextCursor: null, total: 0 });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=1000000000', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=2.5', 'limit'],
    ['level=Z9%20Expert', 'level'],
    ['level=b1', 'level'],
    ['price=-5', 'price'],
    ['price=abc', 'price'],
    ['price=1e9', 'price'],
    ['language=%3Cscript%3E', 'language'],
    ['language=1%27%20OR%201%3D1', 'language'],
    ['sort=price', 'sort'],
    ['cursor=', 'cursor'],
  ])('400 VALIDATION_ERROR for %s, naming the field', async (query, field) => {
    const res = await get(`/api/teachers?${query}`);
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; fields: Record<string, string> } }>();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(body.error.fields)).toContain(field);
  });

  it('400 BAD_CURSOR for a forged or garbled cursor', async () => {
    const forged = createCursorCodec('another-secret-another-secret-another').encode({ value: 5, id: 't000001' }, DEFAULT_SCOPE);
    const real = (await get('/api/teachers')).json<TeachersPage>().nextCursor as string;
    const [payload] = real.split('.');
    const tampered = `${Buffer.from(JSON.stringify([1, 'zzz'])).toString('base64url')}.${real.split('.')[1]}`;
    for (const cursor of [forged, 'garbage', `${payload}`, tampered, `${real}.x`]) {
      const res = await get(`/api/teachers?cursor=${encodeURIComponent(cursor)}`);
      expect(res.statusCode, cursor).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'BAD_CURSOR' } });
    }
  });

  it('a stale cursor (its row deleted since) still continues after that position', async () => {
    const first = (await get('/api/teachers?limit=3')).json<TeachersPage>();
    const last = first.items[2] as Teacher;
    const codec = createCursorCodec('test-secret-test-secret-test-secret-0123456789');
    // a cursor pointing at a row that does not exist (as if deleted): same position
    const ghost = codec.encode({ value: last.rating, id: `${last.id}-gone` }, DEFAULT_SCOPE);
    const next = (await get(`/api/teachers?limit=3&cursor=${encodeURIComponent(ghost)}`)).json<TeachersPage>();
    const expected = [...generated].sort(byOrder);
    const index = expected.findIndex((g) => g.id === last.id);
    // "t000123-gone" sorts after "t000123" in desc order, so the next page starts at t000123 itself
    expect(next.items.map((i) => i.id)).toEqual(expected.slice(index, index + 3).map((g) => g.id));
  });

  it('sends ETag and a short public Cache-Control; If-None-Match gives 304', async () => {
    const res = await get('/api/teachers?language=English');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"/);
    const again = await get('/api/teachers?language=English', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const other = await get('/api/teachers?language=English', { 'if-none-match': '"nope"' });
    expect(other.statusCode).toBe(200);
  });

  it('the list query uses the (rating desc, id desc) index, with and without a cursor', async () => {
    await t.db.rows(sql`analyze teacher`);
    // one connection (a transaction) for the setting and the plans: the pool has several,
    // and the search index's build may be reading on another
    await t.db.orm.transaction(async (tx) => {
      const explain = async (query: SQL) => {
        const result = (await tx.execute(sql`explain ${query}`)) as unknown;
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
        return rows.map((r) => Object.values(r).join('')).join('\n');
      };
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const where of [sql``, sql`where (rating, id) < (4.5::float8, 't000050'::text)`]) {
        const text = await explain(sql`select id from teacher ${where} order by rating desc, id desc limit 5`);
        expect(text).toContain('teacher_list_order_idx');
        expect(text).not.toMatch(/Sort/);
      }
      // Filtered pages are found from the index alone (filter columns are in it).
      const plan = await explain(sql`select id from teacher
            where languages @> array['English']::text[] and levels @> array['B1 Intermediate']::text[]
              and price_per_hour <= 40 and (rating, id) < (4.5::float8, 't000050'::text)
            order by rating desc, id desc limit 5`);
      expect(plan).toContain('Index Only Scan using teacher_list_order_idx');
      expect(plan).not.toMatch(/Sort/);
    });
  });
});

describe('GET /api/teachers/facets', () => {
  it('lists languages sorted, levels in LEVELS order and the distinct prices ascending', async () => {
    const res = await get('/api/teachers/facets');
    expect(res.statusCode).toBe(200);
    const facets = res.json<{ languages: string[]; levels: string[]; prices: number[] }>();
    const languages = [...new Set(generated.flatMap((g) => g.languages))].sort((a, b) => a.localeCompare(b, 'en'));
    expect(facets.languages).toEqual(languages);
    expect(facets.levels).toEqual(LEVELS.filter((l) => generated.some((g) => g.levels.includes(l))));
    expect(facets.prices).toEqual([...new Set(generated.map((g) => g.price_per_hour))].sort((a, b) => a - b));
    expect(res.headers.etag).toBeDefined();
  });
});

describe('GET /api/teachers/:id', () => {
  it('returns one teacher with reviews in their order', async () => {
    const g = generated[41] as (typeof generated)[number];
    const res = await get(`/api/teachers/${g.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...g });
  });

  it('404 NOT_FOUND for an id that does not exist', async () => {
    const res = await get('/api/teachers/t999999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('400 for an id that cannot be an id', async () => {
    const res = await get(`/api/teachers/${encodeURIComponent("1' OR '1'='1")}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { id: expect.any(String) } } });
  });
});

describe('GET /api/stats', () => {
  it('computes the figures from the catalogue', async () => {
    const res = await get('/api/stats');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      teachers: COUNT,
      reviews: generated.reduce((n, g) => n + g.reviews.length, 0),
      languages: new Set(generated.flatMap((g) => g.languages)).size,
      lessonsDone: generated.reduce((n, g) => n + g.lessons_done, 0),
    });
  });
});
