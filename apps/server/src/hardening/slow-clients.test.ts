import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';

/** Issue 10, finding 3: slow bodies and a flood of connections, on a real socket. */
let t: TestApp;
let port: number;
let log = '';
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  t = await createTestApp({ env: { REQUEST_TIMEOUT_MS: '1000', MAX_CONNECTIONS: '3' }, logStream: stream });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(() => t.close());

interface Conn {
  socket: net.Socket;
  received: () => string;
  closed: Promise<void>;
}
function connect(): Promise<Conn> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => {
      data += chunk.toString();
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), ms))]);

describe('slow clients', () => {
  it('a body sent one byte at a time is cut off at the whole-request deadline (408, socket closed)', async () => {
    const conn = await connect();
    conn.socket.write(
      'POST /api/bookings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{',
    );
    // one byte every 200 ms: each keeps the socket busy, none completes the body
    const drip = setInterval(() => conn.socket.write(' '), 200);
    try {
      // REQUEST_TIMEOUT_MS is 1 s; Node looks every 250 ms. Without a deadline the socket stays open.
      expect(await within(conn.closed, 4_000)).toBe(true);
      expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(conn.received()).toContain('{"error":{"code":"REQUEST_TIMEOUT"');
    } finally {
      clearInterval(drip);
      conn.socket.destroy();
    }
  });

  it('connections past MAX_CONNECTIONS are dropped and logged; a freed slot serves again', async () => {
    log = '';
    const held = await Promise.all([connect(), connect(), connect()]);
    try {
      // give the server a moment to count them as open
      await new Promise((done) => setTimeout(done, 100));
      const extra = await connect();
      expect(await within(extra.closed, 2_000)).toBe(true);
      expect(extra.received()).toBe('');
      expect(log).toContain('connection cap hit: 3 open connections (MAX_CONNECTIONS)');
    } finally {
      for (const conn of held) conn.socket.destroy();
    }
    await Promise.all(held.map((conn) => conn.closed));
    await new Promise((done) => setTimeout(done, 100));
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { connection: 'close' } });
    expect(res.status).toBe(200);
  });
});
