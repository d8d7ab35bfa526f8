import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../catalogue/index.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../test/app.js';

/** Issue 10, finding 5: cookie-bearing writes from other sites. */
let t: TestApp;
let user: TestUser;
let port: number;
const teacherId = generatedTeacherId(1);

beforeAll(async () => {
  t = await createTestApp({ seed: 2 });
  user = await signUp(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

/** One raw HTTP/1.1 request on a fresh socket; resolves with the status line's code. */
function rawRequest(head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (match) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.write(head);
  });
}

const favorite = (headers: Record<string, string>, method: 'PUT' | 'DELETE' = 'PUT') =>
  t.app.inject({ method, url: `/api/favorites/${teacherId}`, headers: { cookie: user.cookie, ...headers } });

describe('cross-site writes with the session cookie', () => {
  it('an absolute-form request line with a foreign Origin is refused (the route is what counts, not the raw URL)', async () => {
    const head = (origin: string) =>
      `PUT http://127.0.0.1:${port}/api/favorites/${teacherId} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      `Origin: ${origin}\r\nCookie: ${user.cookie}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    expect(await rawRequest(head('https://evil.example'))).toBe(403);
    expect(await rawRequest(head(TEST_ORIGIN))).toBe(200);
  });

  it.each([
    ['no Origin, Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403],
    ['no Origin, Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }, 403],
    ['a foreign Origin, Sec-Fetch-Site: same-origin', { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' }, 403],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }, 403],
    ['no Origin, Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }, 200],
    ['its own Origin', { origin: TEST_ORIGIN }, 200],
    ['neither header (not a browser: no other site can have sent it)', {}, 200],
  ])('%s → %s', async (_case, headers, status) => {
    const res = await favorite(headers);
    expect(res.statusCode).toBe(status);
    if (status === 403) expect(res.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Cross-site request refused' } });
  });

  it("better-auth's own writes are held to the same rule", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: user.cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(res.statusCode).toBe(403);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: user.cookie } });
    expect(session.json()).toMatchObject({ user: { id: user.id } });
  });

  it('a write without the cookie is not a cross-site risk: the origin check leaves it to the route', async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/favorites/${teacherId}`, headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(401);
  });
});
