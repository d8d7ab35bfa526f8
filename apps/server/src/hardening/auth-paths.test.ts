import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimit } from '../db/schema.js';
import { pruneRateLimits, RATE_LIMIT_KEEP_MS } from '../plugins/auth-housekeeping.js';
import { createTestApp, nextIp, TEST_ORIGIN, type TestApp } from '../test/app.js';

/** Issue 10, finding 7 (and 9's `null` 404s): made-up /api/auth paths and old rate-limit buckets. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const buckets = async () => (await t.db.rows<{ n: number }>(sql`select count(*)::int as n from rate_limit`))[0]?.n;

describe('/api/auth paths better-auth does not have', () => {
  it.each([
    ['POST', '/api/auth/made-up-1'],
    ['GET', '/api/auth/made-up-2?x=1'],
    ['POST', '/api/auth/sign-in/email/extra'],
    ['POST', '/api/auth/reset-password/'],
  ] as const)('%s %s is a JSON 404 that writes no rate-limit bucket', async (method, url) => {
    const before = await buckets();
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method, url, headers: { origin: TEST_ORIGIN }, remoteAddress: nextIp(), payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such auth endpoint' } });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(await buckets()).toBe(before);
  });

  it('real endpoints, including ones with a path parameter, still reach better-auth', async () => {
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session' });
    expect(session.statusCode).toBe(200);
    const reset = await t.app.inject({ method: 'GET', url: '/api/auth/reset-password/some-token?callbackURL=/' });
    expect(reset.statusCode).not.toBe(404);
  });

  it("better-auth's own error answers with an empty body become JSON, never `null`", async () => {
    // a known path with the wrong method: better-auth answers 404 with no body
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/sign-up/email', remoteAddress: nextIp() });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.body).not.toBe('null');
    expect(res.json()).toEqual({ code: expect.any(String), message: expect.any(String) });
  });
});

describe('expired rate-limit buckets', () => {
  it('are deleted; buckets still in use are kept', async () => {
    const now = Date.now();
    const row = (key: string, lastRequest: number) => ({ id: randomUUID(), key, count: 1, lastRequest });
    await t.db.orm.insert(rateLimit).values([
      row('old-1', now - RATE_LIMIT_KEEP_MS - 1),
      row('old-2', now - 24 * 3600_000),
      row('fresh', now - 5_000),
    ]);
    expect(await pruneRateLimits(t.db, now)).toBeGreaterThanOrEqual(2);
    const keys = (await t.db.orm.select({ key: rateLimit.key }).from(rateLimit)).map((r) => r.key);
    expect(keys).toContain('fresh');
    expect(keys).not.toContain('old-1');
    expect(keys).not.toContain('old-2');
  });
});
