import fs from 'node:fs';
import path from 'node:path';
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
