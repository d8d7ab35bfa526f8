import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { avatarPath } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { generateTeacher } from '../../catalogue/index.js';
import { importEntries, type ImportEntry } from '../../catalogue/index.js';
import { createTestApp, testEnv, type TestApp } from '../../test/app.js';
import { fetchPicture } from './picture-source.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const MAX_BYTES = 4096;

/** The pictures' source, on 127.0.0.1: what each path answers, and how often each was asked for. */
let source: Server;
let sourceOrigin = '';
const asked = new Map<string, number>();
const hung: (() => void)[] = [];
/** answers of /held, sent when the test says so */
const held: (() => void)[] = [];
function startSource(): Promise<void> {
  source = createServer((request, response) => {
    const path = request.url ?? '';
    asked.set(path, (asked.get(path) ?? 0) + 1);
    if (path.startsWith('/ok')) {
      // (a moment's delay, so that requests arriving together find the fetch under way)
      setTimeout(() => response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG), 30);
    } else if (path === '/page') response.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
    else if (path === '/vector') response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    else if (path === '/declared-big') response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': MAX_BYTES + 1 }).end();
    else if (path === '/streamed-big') {
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      for (let i = 0; i < 8; i += 1) response.write(Buffer.alloc(1024));
      response.end();
    } else if (path === '/hang') hung.push(() => response.destroy());
    else if (path === '/held') held.push(() => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
    else if (path === '/fake') response.writeHead(200, { 'content-type': 'image/png' }).end('not a png at all');
    else if (path === '/moved') response.writeHead(302, { location: '/ok-moved' }).end();
    else if (path === '/loop') response.writeHead(302, { location: '/loop' }).end();
    else if (path === '/to-file') response.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else response.writeHead(404).end();
  });
  return new Promise((resolve) =>
    source.listen(0, '127.0.0.1', () => {
      sourceOrigin = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

const PICTURES = {
  ok: '/ok',
  okToo: '/ok-too',
  missing: '/missing',
  page: '/page',
  vector: '/vector',
  declaredBig: '/declared-big',
  streamedBig: '/streamed-big',
  hang: '/hang',
  fake: '/fake',
  moved: '/moved',
  loop: '/loop',
  toFile: '/to-file',
  query: '/ok-query',
  held: '/held',
} as const;
type Picture = keyof typeof PICTURES;
const teacherId = (picture: Picture) => `avatar-${picture}`;
const pathOf = (picture: Picture) => avatarPath(teacherId(picture), sourceOrigin + PICTURES[picture], { allowHttp: true })!;

let t: TestApp;
let app: FastifyInstance;
let clock = Date.now();
beforeAll(async () => {
  await startSource();
  t = await createTestApp();
  const entries: ImportEntry[] = (Object.keys(PICTURES) as Picture[]).map((picture, n) => ({
    label: picture,
    record: { ...generateTeacher(n + 1), id: teacherId(picture), avatar_url: sourceOrigin + PICTURES[picture] },
  }));
  entries.push({ label: 'none', record: { ...generateTeacher(99), id: 'avatar-none', avatar_url: null } });
  await importEntries(t.db, entries);
  app = await buildApp({
    env: testEnv(),
    db: t.db,
    catalogueCacheCheckMs: 0,
    mailWorker: false,
    avatars: { maxBytes: MAX_BYTES, fetchTimeoutMs: 1000, retryAfterMs: 60_000, cacheBytes: 3 * PNG.length, now: () => clock, allowLocalSources: true },
  });
  await app.ready();
});
afterAll(async () => {
  hung.forEach((end) => end());
  await app.close();
  await t.close();
  await new Promise((resolve) => source.close(resolve));
});
beforeEach(() => asked.clear());

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('GET /avatars/:id/:version', () => {
  it("answers the teacher's picture from this origin, fetched once, immutable, with an ETag", async () => {
    const first = await get(pathOf('ok'));
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.rawPayload.equals(PNG)).toBe(true);
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const again = await get(pathOf('ok'));
    expect(again.rawPayload.equals(PNG)).toBe(true);
    expect(asked.get('/ok')).toBe(1);
    const revalidated = await get(pathOf('ok'), { 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
  });

  it('requests arriving together share one fetch of the source', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(pathOf('okToo'))));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(asked.get('/ok-too')).toBe(1);
  });

  it('a source that fails, is not a raster picture, is too large or hangs: 502, and it is not asked again for a while', async () => {
    for (const picture of ['missing', 'page', 'vector', 'declaredBig', 'streamedBig', 'fake', 'hang', 'loop', 'toFile'] as const) {
      const answer = await get(pathOf(picture));
      expect(answer.statusCode, picture).toBe(502);
      expect(answer.json(), picture).toEqual({ error: { code: 'BAD_GATEWAY', message: 'The picture could not be fetched' } });
      expect(answer.headers['cache-control'], picture).toBe('no-store');
      // nothing of what the source sent is passed on
      expect(answer.headers['content-type'], picture).toMatch(/^application\/json/);
    }
    // the first request and three redirects, then no more
    expect(asked.get('/loop')).toBe(4);
    expect(asked.get('/fake')).toBe(1);
    const calls = Object.fromEntries(asked);
    for (const picture of ['missing', 'page', 'hang'] as const) expect((await get(pathOf(picture))).statusCode).toBe(502);
    expect(Object.fromEntries(asked)).toEqual(calls);
    // after the pause the source is asked again
    clock += 61_000;
    expect((await get(pathOf('missing'))).statusCode).toBe(502);
    expect(asked.get('/missing')).toBe(2);
  });

  it('the address comes from the catalogue only: an unknown teacher, one without a picture, a bad id or version', async () => {
    expect((await get('/avatars/no-such-teacher/00000000')).statusCode).toBe(404);
    expect((await get('/avatars/avatar-none/00000000')).statusCode).toBe(404);
    const badVersion = await get(`/avatars/${teacherId('ok')}/${'f'.repeat(9)}`);
    expect(badVersion.statusCode).toBe(400);
    expect(badVersion.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { version: expect.any(String) } } });
    const badId = await get(`/avatars/${encodeURIComponent('a b<')}/00000000`);
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ error: { fields: { id: expect.any(String) } } });
    // a query string names no other source
    expect((await get(`${pathOf('query')}?url=${encodeURIComponent(`${sourceOrigin}/page`)}`)).statusCode).toBe(200);
    expect(asked.get('/ok-query')).toBe(1);
    expect(asked.get('/page')).toBeUndefined();
  });

  it('follows a redirect of the source (at most 3; a loop or another scheme is refused above)', async () => {
    expect((await get(pathOf('moved'))).rawPayload.equals(PNG)).toBe(true);
    expect([asked.get('/moved'), asked.get('/ok-moved')]).toEqual([1, 1]);
  });

  it('a catalogue change empties the cache: pictures are looked up and fetched again', async () => {
    // held (fetched now or by an earlier test): asked for at most once here
    await get(pathOf('ok'));
    await get(pathOf('ok'));
    const before = asked.get('/ok') ?? 0;
    expect(before).toBeLessThanOrEqual(1);
    await importEntries(t.db, [{ label: 'bump', record: { ...generateTeacher(300), id: 'avatar-bump', avatar_url: null } }]);
    expect((await get(pathOf('ok'))).statusCode).toBe(200);
    expect(asked.get('/ok')).toBe(before + 1);
  });

  it('a fetch that began before a catalogue change does not keep its picture after it', async () => {
    const first = get(pathOf('held'));
    await expect.poll(() => held.length).toBe(1);
    // the teacher's picture is removed while the fetch is under way, and a request sees it
    await importEntries(t.db, [{ label: 'no picture', record: { ...generateTeacher(5), id: teacherId('held'), avatar_url: null } }]);
    expect((await get(pathOf('held'))).statusCode).toBe(404);
    held.shift()?.();
    expect((await first).statusCode).toBe(200); // asked for before the change
    expect((await get(pathOf('held'))).statusCode).toBe(404);
  });

  it('fetches at most maxFetches sources at once: past it, a picture not held yet answers 503 and nothing is fetched', async () => {
    const slow = await buildApp({
      env: testEnv(),
      db: t.db,
      catalogueCacheCheckMs: 0,
      mailWorker: false,
      avatars: { maxFetches: 1, fetchTimeoutMs: 300, allowLocalSources: true },
    });
    try {
      const hanging = slow.inject({ method: 'GET', url: pathOf('hang') });
      await expect.poll(() => asked.get('/hang')).toBe(1);
      const refused = await slow.inject({ method: 'GET', url: pathOf('ok') });
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(asked.get('/ok')).toBeUndefined();
      expect((await hanging).statusCode).toBe(502);
      // the fetch is over: the next one goes ahead
      expect((await slow.inject({ method: 'GET', url: pathOf('ok') })).statusCode).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('as shipped, a source over plain http has no picture: 404, nothing fetched, and the page names no path for it', async () => {
    const shipped = await buildApp({ env: testEnv(), db: t.db, catalogueCacheCheckMs: 0, mailWorker: false });
    try {
      const id = teacherId('ok');
      const source = sourceOrigin + PICTURES.ok;
      expect(avatarPath(id, source)).toBeNull();
      const before = asked.get(PICTURES.ok);
      const answer = await shipped.inject({ method: 'GET', url: pathOf('ok') });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'This teacher has no picture' } });
      expect(asked.get(PICTURES.ok)).toBe(before);
    } finally {
      await shipped.close();
    }
  });

  it("an old version (a page rendered before the picture changed) is sent on to the current one", async () => {
    const answer = await get(`/avatars/${teacherId('ok')}/00000000`);
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe(pathOf('ok'));
    // briefly: the picture may change again, and this answer is not the immutable one
    expect(answer.headers['cache-control']).toBe('public, max-age=60');
  });

  it('keeps at most cacheBytes of pictures: the least recently used goes first', async () => {
    // three teachers share the first picture's source; the cache holds three pictures
    const extra = ['c1', 'c2', 'c3'].map((id, n) => ({
      label: id,
      record: { ...generateTeacher(200 + n), id: `avatar-${id}`, avatar_url: `${sourceOrigin}/ok-${id}` },
    }));
    await importEntries(t.db, extra);
    const paths = extra.map(({ record }) => avatarPath(record.id, record.avatar_url, { allowHttp: true })!);
    for (const path of paths) expect((await get(path)).statusCode).toBe(200);
    await get(pathOf('ok'));
    // /ok was fetched before this test and the three new ones pushed it out: fetched again
    expect(asked.get('/ok')).toBe(1);
    // c1 was the least recently used when /ok came back: fetched again too; c3 is still held
    await get(paths[0]!);
    await get(paths[2]!);
    expect(asked.get('/ok-c1')).toBe(2);
    expect(asked.get('/ok-c3')).toBe(1);
  });
});

describe('fetchPicture outside tests: https sources on public addresses only', () => {
  const options = { maxBytes: MAX_BYTES, timeoutMs: 2000 };
  it('refuses plain http, this machine, private networks and link-local (cloud metadata) before connecting', async () => {
    await expect(fetchPicture(`${sourceOrigin}/ok`, options)).rejects.toThrow('not an https source');
    for (const host of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '192.168.0.1', '[::1]', '[fd00::1]', '[::ffff:127.0.0.1]']) {
      await expect(fetchPicture(`https://${host}/a.png`, options), host).rejects.toThrow('not on a public address');
    }
    expect(asked.size).toBe(0);
  });

  it('refuses a name whose address is not public (checked after DNS, on the connection itself)', async () => {
    await expect(fetchPicture('https://localhost:1/a.png', options)).rejects.toThrow('not on a public address');
  });
});
