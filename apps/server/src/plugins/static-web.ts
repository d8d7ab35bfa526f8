import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app when WEB_DIST holds one: hashed files under /assets are
 * cached for a year, index.html is revalidated on every load, and any other GET for a
 * path that is not a file, from a client that takes HTML, gets index.html (the client router takes it from there). Unknown /api
 * paths always get a JSON 404.
 */
export async function registerStaticWeb(
  app: FastifyInstance,
  options: {
    webDist: string;
    sourceMaps?: boolean;
    /** server rendering (plugins/ssr.ts): every page, `/` included, is rendered instead of index.html */
    renderPage?: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;
  },
): Promise<void> {
  const indexFile = path.join(options.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexFile);

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: options.webDist,
      prefix: '/',
      wildcard: false,
      // Source maps hold the app's whole source: served only when SOURCE_MAPS says so
      // (by default not in production). A refused one is the same 404 as a missing file.
      // With server rendering, index.html is the renderer's template, not a page.
      allowedPath: (pathName) =>
        (options.sourceMaps !== false || !pathName.endsWith('.map')) && !(options.renderPage && pathName === '/index.html'),
      // with server rendering, `/` is a page like any other (index.html is its template)
      index: options.renderPage ? false : ['index.html'],
      cacheControl: false,
      // the built app's scripts and styles, compressed once at their best (precompressAssets)
      preCompressed: true,
      etag: true,
      lastModified: true,
      setHeaders(res, filePath) {
        const relative = path.relative(options.webDist, filePath).split(path.sep).join('/');
        if (relative.startsWith('assets/')) res.header('cache-control', IMMUTABLE);
        else if (relative.endsWith('.html')) res.header('cache-control', 'no-cache');
        else res.header('cache-control', 'public, max-age=3600');
      },
    });
  }

  if (hasWeb) {
    // after the start, off its path: the first requests are compressed as they go (@fastify/compress)
    const timer = setTimeout(() => void precompressAssets(path.join(options.webDist, 'assets'), app.log), 1000);
    timer.unref();
    app.addHook('onClose', () => clearTimeout(timer));
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    // A client route: a browser (text/html) or any client that takes anything (curl's */*),
    // for a path that does not name a file (/teachers/42, not /logo.png).
    const accept = request.headers.accept ?? '*/*';
    const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
    const wantsHtml = (accept.includes('text/html') || accept.includes('*/*')) && !lastSegment.includes('.');
    if (
      (hasWeb || options.renderPage) &&
      !isApi &&
      !pathname.startsWith('/assets/') &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      wantsHtml
    ) {
      if (options.renderPage) return options.renderPage(request, reply);
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // named, but never echoed at length
    const shown = pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
    return sendError(reply, 404, 'NOT_FOUND', `No route for ${request.method} ${shown}`);
  });
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** What is worth compressing among the built files (fonts and images are compressed already). */
const COMPRESSIBLE = /\.(?:js|css|svg|json|txt|html)$/;

/**
 * Each of the built app's scripts and styles next to itself as `.br` (brotli quality 11) and
 * `.gz` (gzip 9), which @fastify/static then sends as they are (preCompressed): compressed
 * once per build (~0.5 s of the thread pool for the whole app) instead of at brotli quality 4
 * on every response, and ~8 % smaller (decision 113). A file already there, as new as its
 * source, is kept (another process of the same server made it); each is written apart and
 * renamed into place, private (0600), so a process never sends half a file. A build folder
 * this process may not write to is left as it is: files are then compressed per response.
 */
export async function precompressAssets(assetsDir: string, log: { warn(message: string): void }): Promise<number> {
  let made = 0;
  let names: string[];
  try {
    names = await fs.promises.readdir(assetsDir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!COMPRESSIBLE.test(name)) continue;
    const file = path.join(assetsDir, name);
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile() || stat.size < 1024) continue;
      let source: Buffer | undefined;
      for (const [extension, compress] of [
        ['.br', (input: Buffer) => brotli(input, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length } })],
        ['.gz', (input: Buffer) => gzip(input, { level: 9 })],
      ] as const) {
        const target = file + extension;
        const existing = await fs.promises.stat(target).catch(() => undefined);
        if (existing && existing.mtimeMs >= stat.mtimeMs) continue;
        source ??= await fs.promises.readFile(file);
        const temporary = `${target}.${process.pid}.tmp`;
        await fs.promises.writeFile(temporary, await compress(source), { mode: 0o600 });
        await fs.promises.rename(temporary, target);
        made += 1;
      }
    } catch (error) {
      log.warn(`${name}: not precompressed (${(error as NodeJS.ErrnoException).code ?? 'error'}); compressed per response`);
      return made;
    }
  }
  return made;
}
