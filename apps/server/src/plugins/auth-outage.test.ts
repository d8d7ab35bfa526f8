import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, nextIp, TEST_ORIGIN, type TestApp } from '../test/app.js';

/**
 * Issue 27: a database that went away costs 503s with Retry-After, for sign-in and sign-up
 * too. better-auth answers a failed query with a 500 of its own, before the API's error
 * handler could tell an outage from a bug.
 */
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  t = await createTestApp({ logStream });
});
afterAll(() => t.close());

describe('accounts while the database is away', () => {
  it('sign-in and sign-up answer 503 with Retry-After, and the log names neither the address nor the query', async () => {
    // The database goes away under the running app (a closed pool answers every query with an error).
    await t.db.close();
    for (const [url, payload] of [
      ['/api/auth/sign-in/email', { email: 'outage-ada@example.com', password: 'password1' }],
      ['/api/auth/sign-up/email', { name: 'Ada', email: 'outage-ada@example.com', password: 'password1' }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN }, remoteAddress: nextIp(), payload });
      expect(res.statusCode, url).toBe(503);
      expect(res.headers['retry-after'], url).toMatch(/^\d+$/);
      expect(res.json(), url).toMatchObject({ error: { code: 'SERVICE_UNAVAILABLE' } });
    }
    const log = lines.join('');
    expect(log).not.toContain('outage-ada');
    expect(log).not.toContain('password1');
  });
});
