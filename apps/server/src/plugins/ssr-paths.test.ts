import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { PAGE_PATH_MAX, pageTarget } from './ssr.js';

/** The built web app: `npm run build` makes it (npm test builds before the unit tests). */
const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../web/dist-ssr/entry-server.js', import.meta.url));
const ORIGIN = 'https://learnlingo.example';

let t: TestApp;
let port: number;
/** every line the app logs (its request logs and errors) */
const log: string[] = [];
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => log.push(...chunk.toString().split('\n').filter(Boolean)));
  t = await createTestApp({ env: { WEB_DIST, PUBLIC_ORIGIN: ORIGIN }, logStream });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

interface Answer {
  status: number;
  location: string | undefined;
  cacheControl: string | undefined;
  body: string;
}

/**
 * GET with the request target exactly as written: over a socket, not inject(), which parses
 * the URL first (and so never sees `/.//evil.example/x` as a client can send it).
 */
function get(target: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: target, headers: { accept: 'text/html' } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          location: response.headers.location,
          cacheControl: response.headers['cache-control'],
          body,
        }),
      );
    });
    request.on('error', reject);
  });
}

/** The absolute URLs a page names for itself. */
const ownUrls = (html: string) =>
  [...html.matchAll(/<link rel="canonical" href="([^"]*)"|<meta property="og:url" content="([^"]*)"/g)].map(
    (match) => match[1] ?? match[2] ?? '',
  );

describe('paths that parse as another host or as no URL (issue 27)', () => {
  const paths = [
    '/.//evil.example/x',
    '//a//',
    '/.//',
    '/%2e//',
    '/%2E%2e//evil.example/x',
    '//evil.example/x',
    '///evil.example/x',
    '/teachers/..//evil.example/x',
    '/%2F%2Fevil.example',
    '/\\evil.example',
    '/%5Cevil.example',
    '/%5cevil.example',
    '/./\\evil.example/',
    '/..%2f',
    '/..%2f..%2fevil.example',
    '/.//evil.example/x?next=//evil.example&q=%2F%2F',
    '/teachers?language=//evil.example',
    `/${'a'.repeat(PAGE_PATH_MAX)}`,
    `/${'a/'.repeat(4000)}`,
  ];

  const named = paths.map((path) => [path.length > 60 ? `${path.slice(0, 30)}… (${path.length} characters)` : path, path]);
  it.each(named)('%s: a 404 or a redirect to a path of ours, never a 500; its own URL is on PUBLIC_ORIGIN', async (_name, path = '') => {
    const from = log.length;
    const answer = await get(path);
    expect(answer.status, path).not.toBeGreaterThanOrEqual(500);
    if (answer.status === 301 || answer.status === 302) {
      // a path on this origin: one leading slash, no backslash (a browser reads `\` as `/`)
      expect(answer.location).toMatch(/^\/(?![/\\])[^\\]*$/);
      expect(answer.location).not.toMatch(/(^|\/)(\.|%2e){1,2}(\/|$|\?)/i);
    } else {
      expect([200, 404], path).toContain(answer.status);
    }
    for (const url of ownUrls(answer.body)) expect(url.startsWith(`${ORIGIN}/`), url).toBe(true);
    // nothing failed: no error logged, no stack
    const logged = log.slice(from);
    expect(logged.filter((line) => line.includes('"stack"') || /"level":50/.test(line))).toEqual([]);
  });

  it('a path with empty or dot segments is sent to its normal form, the query kept; a backslash or a huge path is a bare 404', async () => {
    expect(await get('/.//evil.example/x')).toMatchObject({ status: 301, location: '/evil.example/x' });
    expect(await get('//a//')).toMatchObject({ status: 301, location: '/a/' });
    expect(await get('/.//')).toMatchObject({ status: 301, location: '/' });
    expect(await get('/%2e//')).toMatchObject({ status: 301, location: '/' });
    expect(await get('//teachers?language=French')).toMatchObject({ status: 301, location: '/teachers?language=French' });
    expect(await get('/teachers/./x/%2e%2E')).toMatchObject({ status: 301, location: '/teachers/' });
    // (a last segment with a dot names a file: the JSON 404 before any page)
    for (const path of ['/\\evil', '/%5Cevil/x', '//\\evil']) {
      const backslash = await get(path);
      expect(backslash.status, path).toBe(404);
      expect(backslash.cacheControl, path).toBe('no-store');
      expect(backslash.body, path).not.toContain('evil');
    }
    expect((await get(`/${'a'.repeat(PAGE_PATH_MAX)}`)).status).toBe(404);
    // the normal form renders as before
    const teachers = await get('/teachers?language=French');
    expect(teachers.status).toBe(200);
    expect(ownUrls(teachers.body)).toEqual([`${ORIGIN}/teachers`, `${ORIGIN}/teachers`]);
  });
});

describe('pageTarget', () => {
  it('keeps a normal path, resolves dot segments (encoded too) and empty ones, refuses backslashes', () => {
    expect(pageTarget('/')).toEqual({ kind: 'page', url: '/' });
    expect(pageTarget('/teachers/abc?x=//y')).toEqual({ kind: 'page', url: '/teachers/abc?x=//y' });
    expect(pageTarget('/teachers/')).toEqual({ kind: 'page', url: '/teachers/' });
    expect(pageTarget('/a/%2E%2e/b')).toEqual({ kind: 'redirect', location: '/b' });
    expect(pageTarget('/../../x')).toEqual({ kind: 'redirect', location: '/x' });
    expect(pageTarget('/a/.')).toEqual({ kind: 'redirect', location: '/a/' });
    expect(pageTarget('/...')).toEqual({ kind: 'page', url: '/...' });
    expect(pageTarget('/a\\b')).toEqual({ kind: 'not-found' });
    expect(pageTarget('*')).toEqual({ kind: 'not-found' });
  });
});
