import type { TeachersPage } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { directApiOf } from './direct-api.js';

let t: TestApp;
let id: string;
let cursor: string;
let searchCursor: string;
beforeAll(async () => {
  t = await createTestApp({ seed: 60 });
  const first = (await t.app.inject({ method: 'GET', url: '/api/teachers?limit=3' })).json<TeachersPage>();
  id = first.items[0]!.id;
  cursor = first.nextCursor!;
  const search = (await t.app.inject({ method: 'GET', url: '/api/teachers?q=a&limit=1' })).json<TeachersPage>();
  searchCursor = search.nextCursor!;
});
afterAll(() => t.close());

/** What the renderer reads of an answer (server-query.ts): status, body, and these headers. */
const READ_HEADERS = ['content-type', 'etag', 'cache-control'] as const;

async function injected(url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
  return {
    status: response.statusCode,
    headers: Object.fromEntries(READ_HEADERS.flatMap((name) => (response.headers[name] === undefined ? [] : [[name, String(response.headers[name])]]))),
    body: response.payload,
  };
}

describe("the direct entry: a page's public reads without inject()", () => {
  // each twice: a cache fill and a cached answer
  const answered = () => [
    '/api/teachers',
    '/api/teachers?limit=3',
    `/api/teachers?limit=3&cursor=${encodeURIComponent(cursor)}`,
    '/api/teachers?sort=price-asc&language=english&price=30',
    '/api/teachers?level=B1+Intermediate&sort=lessons',
    '/api/teachers?language=Klingon',
    '/api/teachers?price_min=500',
    `/api/teachers?q=${encodeURIComponent('a')}`,
    `/api/teachers?q=a&limit=1&cursor=${encodeURIComponent(searchCursor)}`,
    '/api/teachers/facets',
    '/api/teachers/facets?language=French&q=an',
    `/api/teachers/${id}`,
    `/api/teachers/${id}/reviews`,
    `/api/teachers/${id}/reviews?sort=lowest&page=1`,
    `/api/teachers/${id}/reviews?page=2`,
    '/api/stats',
  ];

  it("answers as the route does: the same status, JSON text and headers the renderer reads", async () => {
    for (const round of [1, 2]) {
      for (const url of answered()) {
        const direct = await directApiOf(t.app).answer('GET', url);
        expect(direct, `${url} (round ${round})`).toBeDefined();
        const { status, headers, body } = direct!;
        const picked = Object.fromEntries(READ_HEADERS.flatMap((name) => (headers[name] === undefined ? [] : [[name, headers[name]]])));
        expect({ status, headers: picked, body }, url).toEqual(await injected(url));
        expect(status).toBe(200);
      }
    }
  });

  // what the route refuses or does not find (its error answers are the route's own), other
  // routes, other methods, what the router decodes itself: inject() answers
  it('leaves to inject() what it does not answer as the route would', async () => {
    const left = [
      '/api/teachers?sort=nonsense',
      '/api/teachers?cursor=forged',
      '/api/teachers?language=English&language=French',
      '/api/teachers?limit=0',
      '/api/teachers/facets?sort=rating',
      '/api/teachers/no-such-teacher',
      '/api/teachers/not%20an%20id',
      `/api/teachers/${'x'.repeat(201)}`,
      '/api/teachers/no-such-teacher/reviews',
      `/api/teachers/${id}/reviews?page=0`,
      `/api/teachers/${id}/`,
      '/api/favorites',
      '/api/nothing-here',
    ];
    for (const url of left) {
      expect(await directApiOf(t.app).answer('GET', url), url).toBeUndefined();
      expect((await injected(url)).status, url).not.toBe(200);
    }
    // the session (a cookie to read, one to set) is inject()'s
    expect(await directApiOf(t.app).answer('GET', '/api/auth/get-session')).toBeUndefined();
    expect(await directApiOf(t.app).answer('POST', '/api/teachers')).toBeUndefined();
  });
});
