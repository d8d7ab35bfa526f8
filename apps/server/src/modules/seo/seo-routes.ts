import { Readable } from 'node:stream';
import { TEACHER_ID_MAX } from '@learnlingo/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../../plugins/errors.js';
import { etagOf, notModified } from '../../catalogue/index.js';
import { createSeoRepository } from '../../catalogue/index.js';
import {
  sitemapIndex,
  urlEntry,
  URLSET_CLOSE,
  URLSET_OPEN,
  urlsPerFile,
  type SitemapEntry,
} from './sitemap-xml.js';

export interface SeoRoutesOptions {
  /** PUBLIC_ORIGIN: every URL in robots.txt and the sitemaps is absolute on it */
  publicOrigin: string;
  /** URLs per sitemap file (default and at most: the protocol's 50,000); tests make it small */
  urlsPerFile?: number | undefined;
  /** teachers read per statement while a sitemap streams out (default 5000) */
  pageRows?: number | undefined;
}

/** The pages to index besides the teachers'. */
export const STATIC_PATHS = ['/', '/teachers'] as const;

/** Pages a search engine must not index: the API, and what is personal or behind a link. */
export const DISALLOWED_PATHS = ['/api/', '/account', '/favorites', '/lessons', '/bookings/', '/reset-password'] as const;

/** Bumped when the files' shape changes, so a cached copy is not revalidated as unchanged. */
const FORMAT = 1;
/** Like the API's catalogue responses: reusable briefly, then revalidated by ETag. */
const SITEMAP_CACHE = 'public, max-age=60';
const ROBOTS_CACHE = 'public, max-age=3600';
const XML = 'application/xml; charset=utf-8';

const PART_FILE = /^teachers-([1-9][0-9]{0,8})\.xml$/;
const PAGES_FILE = 'pages.xml';

/**
 * /robots.txt and the sitemaps (docs/decisions/070-sitemaps.md): /sitemap.xml lists `/`,
 * `/teachers` and every teacher's page; when they are more than one file may hold, it is
 * a sitemap index of /sitemaps/pages.xml and /sitemaps/teachers-N.xml. A sitemap streams
 * out as the teachers are read in id order, pageRows at a time (keyset), and is never
 * held whole in memory; its ETag follows the catalogue version, so a revalidation costs
 * no read of the catalogue.
 */
export async function seoRoutes(app: FastifyInstance, options: SeoRoutesOptions): Promise<void> {
  const origin = options.publicOrigin;
  const perFile = Math.min(options.urlsPerFile ?? Number.POSITIVE_INFINITY, urlsPerFile(origin, '/teachers/'.length + TEACHER_ID_MAX));
  const pageRows = options.pageRows ?? 5000;
  const repository = createSeoRepository(app.db);
  const cache = app.catalogueCache;

  const teacherCount = () => cache.memo('seo:teachers', () => repository.teacherCount());
  const catalogueUpdated = () => cache.memo('seo:updated', () => repository.catalogueUpdated());
  const teacherUrl = (id: string) => `${origin}/teachers/${encodeURIComponent(id)}`;
  const teacherParts = (count: number) => Math.ceil(count / perFile);

  async function staticEntries(): Promise<SitemapEntry[]> {
    const lastmod = await catalogueUpdated();
    return STATIC_PATHS.map((path) => ({ loc: `${origin}${path}`, lastmod }));
  }

  /** A <urlset> of these entries, then `count` teachers from position `from` in id order. */
  function urlset(entries: readonly SitemapEntry[], from: number, count: number): Readable {
    async function* chunks() {
      yield URLSET_OPEN + entries.map(urlEntry).join('');
      let after = count > 0 ? await cache.memo(`seo:before:${from}`, () => repository.idBefore(from)) : '';
      for (let left = count; left > 0; ) {
        const rows = await repository.teacherPage(after, Math.min(pageRows, left));
        let chunk = '';
        for (const row of rows) chunk += urlEntry({ loc: teacherUrl(row.id), lastmod: row.lastmod });
        yield chunk;
        const last = rows.at(-1);
        if (!last || rows.length < Math.min(pageRows, left)) break;
        left -= rows.length;
        after = last.id;
      }
      yield URLSET_CLOSE;
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  /**
   * Sends what `build` makes, with an ETag of the catalogue version and this file's name,
   * or 304 when the client holds it already (nothing read but the version).
   */
  async function sendVersioned(
    request: FastifyRequest,
    reply: FastifyReply,
    file: string,
    build: () => Promise<string | Readable | null>,
  ) {
    // the catalogue's version and change feed position (a hidden or new teacher changes the files)
    const version = await app.catalogueFeed.state();
    const etag = etagOf(JSON.stringify([FORMAT, origin, perFile, version, file]));
    const body = await build();
    if (body === null) return sendError(reply, 404, 'NOT_FOUND', `No sitemap ${file}`);
    reply.header('etag', etag).header('cache-control', SITEMAP_CACHE);
    if (notModified(request, etag)) return reply.code(304).send();
    return reply.type(XML).send(body);
  }

  const robots = [
    'User-agent: *',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
  const robotsEtag = etagOf(robots);

  app.get('/robots.txt', { schema: { hide: true } }, async (request, reply) => {
    reply.header('etag', robotsEtag).header('cache-control', ROBOTS_CACHE);
    if (notModified(request, robotsEtag)) return reply.code(304).send();
    return reply.type('text/plain; charset=utf-8').send(robots);
  });

  app.get('/sitemap.xml', { schema: { hide: true } }, (request, reply) =>
    sendVersioned(request, reply, 'sitemap.xml', async () => {
      const count = await teacherCount();
      if (STATIC_PATHS.length + count <= perFile) return urlset(await staticEntries(), 0, count);
      const lastmod = await catalogueUpdated();
      const parts = [`${origin}/sitemaps/${PAGES_FILE}`];
      for (let n = 1; n <= teacherParts(count); n += 1) parts.push(`${origin}/sitemaps/teachers-${n}.xml`);
      return sitemapIndex(parts.map((loc) => ({ loc, lastmod })));
    }),
  );

  app.get<{ Params: { file: string } }>('/sitemaps/:file', { schema: { hide: true } }, (request, reply) => {
    const { file } = request.params;
    return sendVersioned(request, reply, `sitemaps/${file}`, async () => {
      if (file === PAGES_FILE) return urlset(await staticEntries(), 0, 0);
      const part = file.length <= 32 ? PART_FILE.exec(file) : null;
      const n = part ? Number(part[1]) : 0;
      const count = await teacherCount();
      if (n < 1 || n > teacherParts(count)) return null;
      const from = (n - 1) * perFile;
      return urlset([], from, Math.min(perFile, count - from));
    });
  });
}
