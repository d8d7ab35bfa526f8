import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';

/** Issue 10, finding 9: every answer, Fastify's and Node's own errors included, in the app's JSON shape with the security headers. */
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ seed: 1 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}
/** Sends `head` as is on a fresh socket and reads until the server closes it. */
function raw(head: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const [top = '', ...rest] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const match = /^HTTP\/1\.1 (\d{3})/.exec(statusLine);
      if (!match) reject(new Error(`no status line in ${JSON.stringify(data.slice(0, 200))}`));
      else resolve({ status: Number(match[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(head);
  });
}
const get = (target: string, extra = '') => raw(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Connection: close\r\n\r\n`);

function expectShapeAndHeaders(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(res.body)).toEqual({ error: { code, message: expect.any(String) } });
  expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(res.headers['permissions-policy']).toContain('camera=()');
}

describe("Fastify's and Node's own error answers", () => {
  it.each(['/api/teachers/%ZZ', '/%ZZ', '/api/auth/%ZZ'])('a URL that cannot be decoded (%s): 400 in our shape', async (target) => {
    const res = await get(target);
    expectShapeAndHeaders(res, 400, 'VALIDATION_ERROR');
    expect(res.body).not.toContain('%ZZ');
  });

  it('a path parameter past maxParamLength: 414 in our shape, the path not echoed', async () => {
    const res = await get(`/api/teachers/${'x'.repeat(500)}`);
    expectShapeAndHeaders(res, 414, 'URI_TOO_LONG');
    expect(res.body).not.toContain('xxxxxxxxxx');
  });

  it('headers past the limit: 431 in our shape', async () => {
    const res = await get('/api/health', `X-Big: ${'a'.repeat(20_000)}\r\n`);
    expectShapeAndHeaders(res, 431, 'HEADERS_TOO_LARGE');
  });

  it('a request line that is not HTTP: 400 in our shape', async () => {
    const res = await raw('HELLO\r\n\r\n');
    expectShapeAndHeaders(res, 400, 'VALIDATION_ERROR');
  });

  it('an unknown path is named, but not echoed at length', async () => {
    const res = await get(`/api/${'y'.repeat(5000)}`);
    expectShapeAndHeaders(res, 404, 'NOT_FOUND');
    expect(res.body.length).toBeLessThan(400);
  });
});

describe('while the server closes', () => {
  it('a request arriving on a kept-alive connection gets our 503 with the security headers', async () => {
    const own = await createTestApp();
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const ownPort = (own.app.server.address() as net.AddressInfo).port;
    const socket = net.connect(ownPort, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    await new Promise<void>((done) => socket.once('connect', () => done()));
    const until = async (condition: () => boolean, what: string) => {
      for (let waited = 0; !condition(); waited += 20) {
        if (waited > 10_000) throw new Error(`gave up waiting for ${what}`);
        await new Promise((done) => setTimeout(done, 20));
      }
    };
    // a first request, routed before the close begins, its body still on its way: the connection is busy
    socket.write('POST /api/bookings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{');
    await new Promise((done) => setTimeout(done, 500));
    const closing = own.close();
    await until(() => !own.app.server.listening, 'the server to stop listening');
    socket.write('}');
    await until(() => /^HTTP\/1\.1 \d{3} [\s\S]*\r\n\r\n\{[\s\S]*\}$/.test(data), 'the first answer');
    // a second request on the same connection, after the close began
    socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await closed;
    await closing;
    const second = data.slice(data.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second.toLowerCase()).toContain('content-security-policy:');
    expect(second.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(second).toContain('{"error":{"code":"SERVICE_UNAVAILABLE"');
  }, 120_000); // its own app on a fresh database: slow on a busy machine
});
