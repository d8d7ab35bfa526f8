import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from './catalogue/index.js';
import { createTestApp, TEST_ORIGIN, type TestApp } from './test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 3 });
});
afterAll(() => t.close());

const validBooking = {
  teacherId: generatedTeacherId(1),
  reason: 'Lesson for kids',
  fullName: 'Grace Hopper',
  email: 'grace@example.com',
  phone: '+1 555 010 9999',
};

describe('errors are JSON, 4xx for client faults, never a stack', () => {
  it('413 PAYLOAD_TOO_LARGE for a 1 MB body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...validBooking, fullName: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('413 on the auth routes too', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { 'content-type': 'application/json', origin: TEST_ORIGIN },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024), email: 'a@example.com', password: 'password1' }),
    });
    expect(res.statusCode).toBe(413);
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for a form or text body', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/bookings',
        headers: { 'content-type': type },
        payload: 'teacherId=t000001',
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
  });

  it('400 for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: { 'content-type': 'application/json' },
      payload: '{"teacherId": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it.each([
    ['an array body', [1, 2, 3]],
    ['wrong types everywhere', { teacherId: 1, reason: true, fullName: [], email: {}, phone: null }],
    ['a number', 42],
  ])('400 for %s', async (_label, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
  });

  it('404 NOT_FOUND JSON for unknown /api paths and methods', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here'],
      ['GET', '/api'],
      ['POST', '/api/teachers'],
      ['DELETE', '/api/bookings'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it('a teacher stored with SQL and HTML in its strings comes back verbatim as JSON', async () => {
    const { importEntries } = await import('./catalogue/index.js');
    const { buildTeacher } = await import('./catalogue/index.js');
    const nasty = "<img src=x onerror=alert(1)> '; DROP TABLE teacher; --";
    await importEntries(t.db, [{ label: 'x', record: buildTeacher({ id: 'nasty', name: nasty, lesson_info: nasty }) }]);
    const res = await t.app.inject({ method: 'GET', url: '/api/teachers/nasty' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ name: nasty, lesson_info: nasty });
    expect((await t.app.inject({ method: 'GET', url: '/api/stats' })).json()).toMatchObject({ teachers: 4 });
  });
});

describe('GET /api/health', () => {
  it('reports the database, the engine and whether the search index is built', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', engine: t.db.engine, searchIndex: expect.stringMatching(/^(ready|pending)$/) });
    // a search begins the build (the statements answer it meanwhile); the index is then ready
    expect((await t.app.inject({ method: 'GET', url: '/api/teachers?q=lesson' })).statusCode).toBe(200);
    await expect
      .poll(async () => (await t.app.inject({ method: 'GET', url: '/api/health' })).json().searchIndex, { timeout: 10_000 })
      .toBe('ready');
  });

  it('503 when the database does not answer', async () => {
    const failing = Object.create(t.db) as typeof t.db;
    Object.defineProperty(failing, 'ping', { value: async () => false });
    const original = t.app.db;
    Object.defineProperty(t.app, 'db', { value: failing, configurable: true, writable: true });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'degraded', database: 'unavailable', engine: t.db.engine, searchIndex: 'pending' });
    } finally {
      Object.defineProperty(t.app, 'db', { value: original, configurable: true, writable: true });
    }
  });
});

describe('GET /api/version', () => {
  it('answers constant JSON (the benchmark ceiling)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/version' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: 'learnlingo', api: 1 });
  });
});

describe('security headers', () => {
  it('are on API responses, errors and 404s', async () => {
    for (const url of ['/api/health', '/api/teachers?limit=0', '/api/nope', '/']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      // pictures from this origin only (teachers' avatars too: /avatars/…)
      expect(csp).toContain("img-src 'self' data:;");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('OpenAPI at /api/docs/json describes the routes; the docs UI gets its own CSP', async () => {
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    const spec = json.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(spec.openapi).toMatch(/^3\./);
    for (const p of ['/api/teachers', '/api/teachers/facets', '/api/teachers/{id}', '/api/stats', '/api/favorites', '/api/favorites/{teacherId}', '/api/bookings', '/api/health']) {
      expect(Object.keys(spec.paths)).toContain(p);
    }
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-security-policy']).toContain("'unsafe-inline'");
    const api = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(api.headers['content-security-policy']).not.toContain("script-src 'self' 'unsafe-inline'");
  });
});

describe('serving the built web app', () => {
  let dist: string;
  let web: TestApp;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><body><div id="root"></div>${'<!-- pad -->'.repeat(200)}</body></html>`);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(5000))});`);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
    fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    web = await createTestApp({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await web.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('hashed assets are immutable for a year and compressed', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-security-policy']).toBeDefined();
    const gz = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('index.html is revalidated every time, at / and for client routes (SPA fallback)', async () => {
    for (const url of ['/', '/teachers', '/teachers/t000001?x=1', '/favorites', '/some/unknown/page']) {
      const res = await web.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('source maps (issue 10, finding 9): served outside production, not in production unless SOURCE_MAPS=true', async () => {
    const development = await web.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
    expect(development.statusCode).toBe(200);
    const production = await createTestApp({ env: { WEB_DIST: dist, NODE_ENV: 'production' } });
    const asked = await createTestApp({ env: { WEB_DIST: dist, NODE_ENV: 'production', SOURCE_MAPS: 'true' } });
    try {
      const refused = await production.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain('secret.ts');
      expect((await production.app.inject({ method: 'GET', url: '/assets/index-abc123.js' })).statusCode).toBe(200);
      expect((await asked.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' })).statusCode).toBe(200);
    } finally {
      await production.close();
      await asked.close();
    }
  }, 120_000); // two more apps on fresh databases: slow on a busy machine

  it('unknown /api paths and missing assets stay real 404s', async () => {
    const api = await web.app.inject({ method: 'GET', url: '/api/unknown', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const asset = await web.app.inject({ method: 'GET', url: '/assets/missing-123.js', headers: { accept: 'text/html' } });
    expect(asset.statusCode).toBe(404);
    // curl-like clients (Accept: */*) get the app for a client route, a 404 for a missing file
    const curl = await web.app.inject({ method: 'GET', url: '/teachers/42', headers: { accept: '*/*' } });
    expect(curl.statusCode).toBe(200);
    expect(curl.headers['content-type']).toContain('text/html');
    const missingFile = await web.app.inject({ method: 'GET', url: '/favicon-old.ico', headers: { accept: '*/*' } });
    expect(missingFile.statusCode).toBe(404);
    const json = await web.app.inject({ method: 'GET', url: '/nothing.png', headers: { accept: 'image/png' } });
    expect(json.statusCode).toBe(404);
  });

  it('other files get a modest cache lifetime', async () => {
    const res = await web.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});
