import type { Favorites } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId, hideTeacher, unhideTeacher } from '../../catalogue/index.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp({ seed: 10 });
  alice = await signUp(t.app, { name: 'Alice' });
  bob = await signUp(t.app, { name: 'Bob' });
});
afterAll(() => t.close());

const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, user?: TestUser) =>
  t.app.inject({ method, url, headers: user ? { cookie: user.cookie, origin: TEST_ORIGIN } : {} });

const ids = (res: { json: () => unknown }) => (res.json() as Favorites).items.map((i) => i.id);

describe('favourites', () => {
  it('401 UNAUTHORIZED on every route when signed out', async () => {
    for (const [method, url] of [
      ['GET', '/api/favorites'],
      ['PUT', `/api/favorites/${generatedTeacherId(1)}`],
      ['DELETE', `/api/favorites/${generatedTeacherId(1)}`],
    ] as const) {
      const res = await call(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    }
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/favorites',
      headers: { cookie: 'better-auth.session_token=forged.value' },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('PUT adds (idempotently), GET lists newest first with full teachers, DELETE removes (idempotently)', async () => {
    const a = generatedTeacherId(1);
    const b = generatedTeacherId(2);
    expect(ids(await call('GET', '/api/favorites', alice))).toEqual([]);

    const put = await call('PUT', `/api/favorites/${a}`, alice);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ teacherId: a, favorite: true });
    expect((await call('PUT', `/api/favorites/${a}`, alice)).json()).toEqual({ teacherId: a, favorite: true });
    await new Promise((r) => setTimeout(r, 5));
    await call('PUT', `/api/favorites/${b}`, alice);

    const list = await call('GET', '/api/favorites', alice);
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('private, no-store');
    expect(ids(list)).toEqual([b, a]);
    expect((list.json() as Favorites).items[0]).toMatchObject({ id: b, reviews: expect.any(Array) });

    const del = await call('DELETE', `/api/favorites/${b}`, alice);
    expect(del.json()).toEqual({ teacherId: b, favorite: false });
    expect((await call('DELETE', `/api/favorites/${b}`, alice)).statusCode).toBe(200);
    expect(ids(await call('GET', '/api/favorites', alice))).toEqual([a]);
  });

  it("keeps users apart: Bob neither sees nor changes Alice's favourites", async () => {
    const a = generatedTeacherId(3);
    await call('PUT', `/api/favorites/${a}`, alice);
    expect(ids(await call('GET', '/api/favorites', bob))).toEqual([]);
    await call('DELETE', `/api/favorites/${a}`, bob);
    expect(ids(await call('GET', '/api/favorites', alice))).toContain(a);
    await call('PUT', `/api/favorites/${generatedTeacherId(4)}`, bob);
    expect(ids(await call('GET', '/api/favorites', alice))).not.toContain(generatedTeacherId(4));
    expect(ids(await call('GET', '/api/favorites', bob))).toEqual([generatedTeacherId(4)]);
  });

  it('a hidden teacher (decision 107) leaves the list and cannot be added; unhidden, it is back in its place', async () => {
    const [kept, hidden] = [generatedTeacherId(5), generatedTeacherId(6)];
    await call('PUT', `/api/favorites/${hidden}`, bob);
    await new Promise((r) => setTimeout(r, 5));
    await call('PUT', `/api/favorites/${kept}`, bob);
    await hideTeacher(t.db, hidden);
    try {
      expect(ids(await call('GET', '/api/favorites', bob))).not.toContain(hidden);
      expect(ids(await call('GET', '/api/favorites', bob))).toContain(kept);
      const refused = await call('PUT', `/api/favorites/${hidden}`, alice);
      expect(refused.statusCode).toBe(404);
      expect(ids(await call('GET', '/api/favorites', alice))).not.toContain(hidden);
    } finally {
      await unhideTeacher(t.db, hidden);
    }
    const list = ids(await call('GET', '/api/favorites', bob));
    expect(list.indexOf(kept)).toBeLessThan(list.indexOf(hidden));
    expect(list).toContain(hidden);
  });

  it('404 NOT_FOUND when adding a teacher that does not exist; 400 for a malformed id', async () => {
    const missing = await call('PUT', '/api/favorites/t999999', alice);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const bad = await call('PUT', `/api/favorites/${encodeURIComponent('<b>x</b>')}`, alice);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { teacherId: expect.any(String) } } });
  });

  it('refuses a cross-site change that carries the session cookie', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/favorites/${generatedTeacherId(5)}`,
      headers: { cookie: alice.cookie, origin: 'https://evil.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(ids(await call('GET', '/api/favorites', alice))).not.toContain(generatedTeacherId(5));
  });
});
