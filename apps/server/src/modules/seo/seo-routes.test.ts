import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { generateTeacher } from '../../catalogue/index.js';
import { importEntries, importFile } from '../../catalogue/index.js';
import { createTestApp, testEnv, type TestApp } from '../../test/app.js';
import { escapeXml, SITEMAP_MAX_BYTES, SITEMAP_MAX_URLS, sitemapIndex, urlEntry, URLSET_CLOSE, URLSET_OPEN, urlsPerFile } from './sitemap-xml.js';

/** The real 30-teacher catalogue (read in place), next to generated teachers: two id shapes. */
const SHARED_EXPORT = fileURLToPath(new URL('../../../../../../shared/data/teachers.json', import.meta.url));
const ORIGIN = 'https://learnlingo.example';
const GENERATED = 23;

/** A small file size and read size, so the index and the keyset paging show with few teachers. */
const PER_FILE = 10;
const PAGE_ROWS = 3;

let t: TestApp;
let small: FastifyInstance;
beforeAll(async () => {
  t = await createTestApp({ seed: GENERATED, env: { PUBLIC_ORIGIN: ORIGIN } });
  await importFile(t.db, SHARED_EXPORT);
  small = await buildApp({
    env: testEnv({ PUBLIC_ORIGIN: ORIGIN }),
    db: t.db,
    catalogueCacheCheckMs: 0,
    mailWorker: false,
    sitemap: { urlsPerFile: PER_FILE, pageRows: PAGE_ROWS },
  });
  await small.ready();
});
afterAll(async () => {
  await small.close();
  await t.close();
});

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

/** Every teacher in the database (id order as the database sorts it) with its updated_at as a W3C datetime. */
async function storedTeachers(): Promise<{ id: string; lastmod: string }[]> {
  const rows = await t.db.rows<{ id: string; updated: Date | string }>(sql`select id, updated_at as updated from teacher order by id`);
  return rows.map((row) => ({ id: row.id, lastmod: `${new Date(row.updated).toISOString().slice(0, 19)}Z` }));
}

interface Parsed {
  root: string;
  entries: { loc: string; lastmod?: string }[];
}

/** Parses a sitemap or an index with a strict XML parser (throws when it is not well-formed). */
function parseSitemap(xml: string): Parsed {
  const parser = new SaxesParser({ xmlns: true });
  const parsed: Parsed = { root: '', entries: [] };
  const path: string[] = [];
  let text = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    if (path.length === 0) {
      parsed.root = tag.name;
      expect(tag.uri).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    }
    if (path.length === 1) parsed.entries.push({ loc: '' });
    path.push(tag.name);
    text = '';
  });
  parser.on('text', (value) => (text += value));
  parser.on('closetag', (tag) => {
    path.pop();
    const entry = parsed.entries.at(-1);
    if (entry && tag.name === 'loc') entry.loc = text;
    if (entry && tag.name === 'lastmod') entry.lastmod = text;
  });
  parser.write(xml).close();
  return parsed;
}

const teacherEntry = ({ id, lastmod }: { id: string; lastmod: string }) => ({ loc: `${ORIGIN}/teachers/${id}`, lastmod });

describe('GET /robots.txt', () => {
  it('disallows the private pages and the API, points to the sitemap on PUBLIC_ORIGIN, with an ETag', async () => {
    const res = await get(t.app, '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe(
      [
        'User-agent: *',
        'Disallow: /api/',
        'Disallow: /account',
        'Disallow: /favorites',
        'Disallow: /lessons',
        'Disallow: /bookings/',
        'Disallow: /reset-password',
        '',
        `Sitemap: ${ORIGIN}/sitemap.xml`,
        '',
      ].join('\n'),
    );
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await get(t.app, '/robots.txt', { 'if-none-match': etag })).statusCode).toBe(304);
  });
});

describe('GET /sitemap.xml', () => {
  it('is one well-formed <urlset> of /, /teachers and exactly the stored teachers, each with its lastmod', async () => {
    const res = await get(t.app, '/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<urlset ')).toBe(true);
    const sitemap = parseSitemap(res.body);
    expect(sitemap.root).toBe('urlset');
    const stored = await storedTeachers();
    expect(stored).toHaveLength(GENERATED + 30);
    const [updated] = await t.db.rows<{ at: Date | string }>(sql`select updated_at as at from catalogue_version`);
    const catalogueLastmod = `${new Date(updated?.at as string).toISOString().slice(0, 19)}Z`;
    expect(sitemap.entries).toEqual([
      { loc: `${ORIGIN}/`, lastmod: catalogueLastmod },
      { loc: `${ORIGIN}/teachers`, lastmod: catalogueLastmod },
      ...stored.map(teacherEntry),
    ]);
  });

  it('compresses, and follows the catalogue version: 304 while it holds, a new ETag and the new teacher after an import', async () => {
    const first = await get(t.app, '/sitemap.xml', { 'accept-encoding': 'gzip' });
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const etag = String(first.headers.etag);
    const again = await get(t.app, '/sitemap.xml', { 'if-none-match': `W/${etag}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const added = { ...generateTeacher(GENERATED + 1), id: 'zz_late-arrival' };
    await importEntries(t.db, [{ label: 'late', record: added }]);
    const after = await get(t.app, '/sitemap.xml', { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    const locs = parseSitemap(after.body).entries.map((e) => e.loc);
    expect(locs).toContain(`${ORIGIN}/teachers/zz_late-arrival`);
    expect(locs).toHaveLength(2 + (await storedTeachers()).length);
  });

  it('becomes an index of parts past the file limit; the parts together hold each teacher once, in order', async () => {
    const stored = await storedTeachers();
    const res = await get(small, '/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const index = parseSitemap(res.body);
    expect(index.root).toBe('sitemapindex');
    const partCount = Math.ceil(stored.length / PER_FILE);
    expect(partCount).toBeGreaterThan(2);
    expect(index.entries.map((e) => e.loc)).toEqual([
      `${ORIGIN}/sitemaps/pages.xml`,
      ...Array.from({ length: partCount }, (_, i) => `${ORIGIN}/sitemaps/teachers-${i + 1}.xml`),
    ]);

    const pages = parseSitemap((await get(small, '/sitemaps/pages.xml')).body);
    expect(pages.entries.map((e) => e.loc)).toEqual([`${ORIGIN}/`, `${ORIGIN}/teachers`]);

    const listed: { loc: string; lastmod?: string }[] = [];
    for (const entry of index.entries.slice(1)) {
      const part = await get(small, new URL(entry.loc).pathname);
      expect(part.statusCode).toBe(200);
      expect(part.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(part.headers.etag).toMatch(/^"/);
      const parsed = parseSitemap(part.body);
      expect(parsed.root).toBe('urlset');
      expect(parsed.entries.length).toBeGreaterThan(0);
      expect(parsed.entries.length).toBeLessThanOrEqual(PER_FILE);
      listed.push(...parsed.entries);
    }
    expect(listed).toEqual(stored.map(teacherEntry));
  });

  it('stays one <urlset> when everything fits exactly, an index one URL later', async () => {
    const stored = await storedTeachers();
    const build = (urlsPerFile: number) =>
      buildApp({ env: testEnv({ PUBLIC_ORIGIN: ORIGIN }), db: t.db, catalogueCacheCheckMs: 0, mailWorker: false, sitemap: { urlsPerFile } });
    const [fits, over] = await Promise.all([build(stored.length + 2), build(stored.length + 1)]);
    try {
      expect(parseSitemap((await get(fits, '/sitemap.xml')).body).root).toBe('urlset');
      expect(parseSitemap((await get(over, '/sitemap.xml')).body).root).toBe('sitemapindex');
    } finally {
      await Promise.all([fits.close(), over.close()]);
    }
  });

  it.each(['teachers-0.xml', 'teachers-99.xml', 'teachers-1.json', 'teachers-01.xml', 'other.xml', `teachers-${'9'.repeat(150)}.xml`])(
    'answers 404 for /sitemaps/%s',
    async (file) => {
      const res = await get(small, `/sitemaps/${file}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    },
  );

  it('answers 404 for the part just past the end, 200 for the last', async () => {
    const parts = Math.ceil((await storedTeachers()).length / PER_FILE);
    expect((await get(small, `/sitemaps/teachers-${parts}.xml`)).statusCode).toBe(200);
    expect((await get(small, `/sitemaps/teachers-${parts + 1}.xml`)).statusCode).toBe(404);
  });
});

describe('sitemap XML', () => {
  it("holds the protocol's limits: 50,000 URLs and 50 MB per file, whatever the origin", () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    expect(SITEMAP_MAX_BYTES).toBe(52_428_800);
    const longestPath = '/teachers/'.length + 64;
    expect(urlsPerFile(ORIGIN, longestPath)).toBe(50_000);
    // an origin so long that 50,000 of its longest entries would pass 50 MB
    const huge = `https://${'a'.repeat(1200)}.example`;
    const n = urlsPerFile(huge, longestPath);
    expect(n).toBeLessThan(50_000);
    const longest = urlEntry({ loc: `${huge}${'x'.repeat(longestPath)}`, lastmod: '2026-11-23T06:43:22Z' });
    expect(Buffer.byteLength(URLSET_OPEN + URLSET_CLOSE) + n * Buffer.byteLength(longest)).toBeLessThanOrEqual(SITEMAP_MAX_BYTES);
    expect(Buffer.byteLength(URLSET_OPEN + URLSET_CLOSE) + (n + 1) * Buffer.byteLength(longest)).toBeGreaterThan(SITEMAP_MAX_BYTES);
  });

  it('escapes the five XML entities, so any text comes back as it went in', () => {
    const hostile = `https://x.example/?a=1&b=<2>&c="3"&d='4'&e=&amp;`;
    expect(escapeXml(hostile)).toBe('https://x.example/?a=1&amp;b=&lt;2&gt;&amp;c=&quot;3&quot;&amp;d=&apos;4&apos;&amp;e=&amp;amp;');
    const urlset = parseSitemap(`${URLSET_OPEN}${urlEntry({ loc: hostile, lastmod: '<now>' })}${URLSET_CLOSE}`);
    expect(urlset.entries).toEqual([{ loc: hostile, lastmod: '<now>' }]);
    const index = parseSitemap(sitemapIndex([{ loc: hostile }]));
    expect(index).toEqual({ root: 'sitemapindex', entries: [{ loc: hostile }] });
  });
});
