import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('get-session and the rate limiter', () => {
  it('answers 150 session checks from one address (a classroom behind one NAT) with 200 and the user', async () => {
    const user = await signUp(t.app);
    const classroom = '10.200.0.1';
    const statuses = new Map<number, number>();
    let signedIn = 0;
    for (let i = 0; i < 150; i += 1) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie: user.cookie },
        remoteAddress: classroom,
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if ((res.json() as { user?: { email?: string } } | null)?.user?.email === user.email) signedIn += 1;
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 150 });
    expect(signedIn).toBe(150);
  });

  it('still limits other auth routes from that address (the general 100 per 60 s rule holds)', async () => {
    const address = '10.200.0.2';
    const statuses: number[] = [];
    for (let i = 0; i < 105; i += 1) {
      const res = await t.app.inject({ method: 'GET', url: '/api/auth/ok', remoteAddress: address });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 100).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(100)).toEqual([429, 429, 429, 429, 429]);
  });
});
