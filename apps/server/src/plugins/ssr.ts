import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiAnswer, ApiRequest, FormEcho, RenderResult, ServerEntry } from '@learnlingo/contract/plain';
import { APP_SCRIPTS_TEMPLATE, deferAppScripts } from './app-loader.js';
import { CLEAR_FLASH, readFlash, withFlash } from './flash.js';
import { directApiOf } from './direct-api.js';
import { splicedGzip, type ConstantPart } from './spliced-gzip.js';
import { developmentCsp } from './security-headers.js';
import { CatalogueCache, etagOf, notModified, pageAffected, type CachedResponse } from '../catalogue/index.js';

/** Anonymous pages: a CDN keeps them a minute and may serve a stale one for ten while it asks again. */
export const ANONYMOUS_HTML = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
/** A signed-in user's page (their name, their favourites): never stored anywhere. */
export const PRIVATE_HTML = 'private, no-store';

/** better-auth's session cookie (`__Secure-` prefixed over HTTPS). */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;

/** A page's constant parts, as bytes. */
const EMPTY = Buffer.alloc(0);
const HEAD_SEPARATOR = Buffer.from('\n    ');
const STATE_OPEN = Buffer.from('<script id="ssr-state" type="application/json">');
const STATE_CLOSE = Buffer.from('</script>');

/**
 * The built index.html, cut where the page's parts go (UTF-8, made once: the same for every
 * page). `beforeChunks` stops where the loader's template of the app's scripts closes (at the
 * start of the body), so that a page's own chunks' modulepreloads join them (decision 131);
 * `beforeHtml` goes on from there to the markup. A template without the loader's (Vite's in
 * development) has `beforeHtml` empty.
 */
interface Template {
  beforeHead: Buffer;
  beforeChunks: Buffer;
  beforeHtml: Buffer;
  beforeState: Buffer;
  end: Buffer;
}

function splitTemplate(html: string, indexFile: string): Template {
  const [beforeHead, rest1] = html.split('<!--ssr-head-->');
  const [beforeHtml, rest2] = (rest1 ?? '').split('<!--ssr-html-->');
  const [beforeState, end] = (rest2 ?? '').split('<!--ssr-state-->');
  if (beforeHead === undefined || beforeHtml === undefined || beforeState === undefined || end === undefined) {
    throw new Error(`${indexFile} lacks the <!--ssr-head-->, <!--ssr-html--> or <!--ssr-state--> marks`);
  }
  const opening = beforeHtml.indexOf(APP_SCRIPTS_TEMPLATE);
  const closing = opening < 0 ? beforeHtml.length : beforeHtml.indexOf('</template>', opening);
  return {
    beforeHead: Buffer.from(beforeHead),
    beforeChunks: Buffer.from(beforeHtml.slice(0, closing)),
    beforeHtml: Buffer.from(beforeHtml.slice(closing)),
    beforeState: Buffer.from(beforeState),
    end: Buffer.from(end),
  };
}

interface ManifestChunk {
  file: string;
  /** a chunk group's name (vite.config.ts: staff, lessons…) */
  name?: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/**
 * The manifest's key for a page module: its own, or — when a chunk group took the module in whole
 * (the staff group: /admin and /teach's pages) and the manifest has no key for it — the group's
 * chunk whose source map lists it. Without this those pages came without their styles.
 */
function chunkKeyOf(webDist: string, manifest: Record<string, ManifestChunk>, module: string): string {
  if (manifest[module]) return module;
  for (const [key, chunk] of Object.entries(manifest)) {
    const map = path.join(webDist, `${chunk.file}.map`);
    if (!chunk.name || !chunk.css || !fs.existsSync(map)) continue;
    const { sources } = JSON.parse(fs.readFileSync(map, 'utf8')) as { sources?: string[] };
    if (sources?.some((source) => source.endsWith(`/${module}`))) return key;
  }
  return module;
}

/** A chunk and every chunk it imports statically (manifest keys), each once, the imported before the importer. */
function manifestChunks(manifest: Record<string, ManifestChunk>, key: string, seen = new Set<string>()): string[] {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [...(chunk.imports ?? []).flatMap((imported) => manifestChunks(manifest, imported, seen)), key];
}

/** The CSS files a chunk needs: its own and those of the chunks it imports, in order. */
const cssOf = (manifest: Record<string, ManifestChunk>, key: string) => manifestChunks(manifest, key).flatMap((chunk) => manifest[chunk]?.css ?? []);

/** index.html without the <link> element that names this file. */
function withoutLink(html: string, file: string): string {
  const at = html.indexOf(`href="/${file}"`);
  const start = html.lastIndexOf('<link', at);
  const end = html.indexOf('>', at);
  if (at < 0 || start < 0 || end < 0) return html;
  return html.slice(0, start).trimEnd() + html.slice(end + 1);
}

/** The woff2 files a stylesheet names (`url(/assets/….woff2)`). */
function fontsOf(css: string): string[] {
  return [...new Set([...css.matchAll(/url\((\/assets\/[\w.-]+\.woff2)\)/g)].map((match) => match[1] ?? ''))];
}

/** The page's styles for its <head>, and the stylesheet links the template had. */
interface PageStyles {
  /** what index.html links (the first load's CSS), which the inline styles replace */
  linked: string[];
  /** the <head> tags for a page module's styles (UTF-8, made once per module: the same bytes for every page) */
  forModule(module: string | undefined): Buffer;
  /**
   * modulepreload tags for a page module's own chunks (those not in the first load), for the
   * loader's template: asked for with the shell, after the first paint, not once the layout has
   * rendered and asks for them (issue 28; decision 131). Made once per module; empty for none.
   */
  chunksOf(module: string | undefined): Buffer;
}

/**
 * Page modules whose chunks load on demand, after the layout asks for them, rather than with the
 * app's first scripts: `/`'s first load is held to 100 kB of JavaScript (issue 28,
 * e2e/first-load.spec.ts; the home page's chunks are ~22 kB more).
 */
const CHUNKS_ON_DEMAND = new Set(['src/app/pages/home-page.tsx']);

/**
 * Critical CSS, inline: the first load's stylesheets and those of the page's own chunk (from
 * Vite's manifest) in one <style> in the head, so the first paint waits for no stylesheet
 * request. The page chunk's files are also named by `disabled` links (never fetched): the
 * chunk loader, finding them, does not fetch the same CSS again when the page's code loads.
 */
function readPageStyles(webDist: string): PageStyles {
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile)) return { linked: [], forModule: () => EMPTY, chunksOf: () => EMPTY };
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const firstLoad = [...new Set(entries.flatMap((key) => cssOf(manifest, key)))];
  const read = (file: string) => fs.readFileSync(path.join(webDist, file), 'utf8');
  const firstLoadCss = firstLoad.map(read).join('\n');
  const byModule = new Map<string, Buffer>();
  const forModule = (module: string | undefined) => {
    const key = module ?? '';
    let tags = byModule.get(key);
    if (tags === undefined) {
      const own = [...new Set(cssOf(manifest, chunkKeyOf(webDist, manifest, key)))].filter((file) => !firstLoad.includes(file));
      tags = Buffer.from(
        [
          ...fontsOf(firstLoadCss).map((file) => `<link rel="preload" href="${file}" as="font" type="font/woff2" crossorigin />`),
          `<style>${[firstLoadCss, ...own.map(read)].join('\n').replace(/<\/style/gi, '<\\/style')}</style>`,
          ...own.map((file) => `<link rel="stylesheet" href="/${file}" disabled />`),
        ].join('\n    '),
      );
      byModule.set(key, tags);
    }
    return tags;
  };
  const firstLoadJs = new Set(entries.flatMap((key) => manifestChunks(manifest, key)));
  const chunksByModule = new Map<string, Buffer>();
  const chunksOf = (module: string | undefined) => {
    if (!module || CHUNKS_ON_DEMAND.has(module)) return EMPTY;
    let tags = chunksByModule.get(module);
    if (tags === undefined) {
      // the page's own chunk first (asked for first), then what it imports
      const own = manifestChunks(manifest, chunkKeyOf(webDist, manifest, module))
        .reverse()
        .filter((key) => !firstLoadJs.has(key));
      tags = Buffer.from(own.map((key) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${manifest[key]?.file}">`).join(''));
      chunksByModule.set(module, tags);
    }
    return tags;
  };
  return { linked: firstLoad, forModule, chunksOf };
}

/**
 * A page's API request answered by the app itself: a public catalogue read by its route's own
 * reader (direct-api.ts, no Fastify request), anything else — the session, favourites, a
 * signed-in page's reads, an answer the reader leaves to the route (400, 404) — by inject(),
 * with the visitor's cookie and address; plain objects in and out (no Fetch API Request,
 * Headers or Response: issue 29).
 */
export function inProcessApi(app: FastifyInstance, request: FastifyRequest, setCookies: string[]) {
  const direct = directApiOf(app);
  // Answers are handed to the render in the order it asked for them: two reads made at once
  // (a teacher and its reviews) then reach the store in the same order whichever the database
  // finished first, so the page's state — RTK Query's `provided` tags are kept in the order
  // the answers came — is the same for the same data (issue 29: the reviews page became one
  // statement and could overtake the teacher).
  let handed: Promise<unknown> = Promise.resolve();
  return (apiRequest: ApiRequest): Promise<ApiAnswer> => {
    const answer = answerOf(apiRequest);
    // (its failure is the caller's, through inTurn: not an unhandled rejection while it waits its turn)
    answer.catch(() => undefined);
    const inTurn = handed.then(() => answer);
    handed = inTurn.catch(() => undefined);
    return inTurn;
  };

  async function answerOf(apiRequest: ApiRequest): Promise<ApiAnswer> {
    // the public catalogue's reads (a list, its facets, a teacher, their reviews, the stats):
    // their routes' readers called directly, with no cookie to read and none to set (direct-api.ts)
    const answer = await direct.answer(apiRequest.method, apiRequest.url);
    if (answer) return answer;
    const headers = { ...apiRequest.headers };
    if (request.headers.cookie) headers.cookie = request.headers.cookie;
    if (request.headers['user-agent']) headers['user-agent'] = request.headers['user-agent'];
    const response = await app.inject({
      method: apiRequest.method as 'GET',
      url: apiRequest.url,
      headers,
      remoteAddress: request.ip,
      ...(apiRequest.body !== undefined ? { payload: apiRequest.body } : {}),
    });
    // a session the server refreshed while rendering reaches the browser
    const cookies = response.headers['set-cookie'];
    if (cookies !== undefined) setCookies.push(...(Array.isArray(cookies) ? cookies : [cookies]));
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return { status: response.statusCode, headers: response.headers, body: empty ? '' : response.payload };
  }
}

export interface SsrOptions {
  webDist: string;
  publicOrigin: string;
  /**
   * The school's contact address for the footer, now (the console's setting: decision 119). Read
   * for every page, so it must be cheap (a per-server memo); when it changes the HTML cache is dropped.
   */
  contactEmail: () => Promise<string | null>;
  /** anonymous pages kept in this process (0: none) */
  htmlCacheMax: number;
  /** whose turn it is to render (`limitConcurrency(SSR_CONCURRENCY, RENDER_QUEUE_MAX)`; tests hold a turn) */
  renderTurns: RenderTurns;
  /** how often the HTML cache looks at the catalogue version */
  cacheCheckMs: number;
  /**
   * Development: the web app's source folder (apps/web). Vite runs inside this server in
   * middleware mode (modules, hot reload) and renders from source; no HTML cache.
   */
  devWebRoot?: string;
}

/** What renders a page: the template, the server entry and each page's stylesheet links. */
interface Renderer {
  template: Template;
  entry: ServerEntry;
  pageStyles: PageStyles;
}

/** The part of Vite's dev server used here (Vite belongs to apps/web: its types are not the server's). */
interface ViteDevServer {
  middlewares: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
  transformIndexHtml(url: string, html: string): Promise<string>;
  ssrLoadModule(url: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Vite's dev server inside Fastify: its middleware serves the modules, it renders from source. */
async function viteRenderer(app: FastifyInstance, webRoot: string): Promise<(url: string) => Promise<Renderer>> {
  // development only: neither is needed to run the built app. Vite is the web app's own.
  const vitePath = createRequire(path.join(webRoot, 'package.json')).resolve('vite');
  const [{ createServer }, { default: middie }] = await Promise.all([
    import(pathToFileURL(vitePath).href) as Promise<{ createServer: (config: object) => Promise<ViteDevServer> }>,
    import('@fastify/middie'),
  ]);
  // apps/web's vite.config.ts proxies /api to a server on :3000 unless it runs inside one
  process.env.WEB_DEV = 'true';
  const vite = await createServer({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server: app.server } },
  });
  app.addHook('onClose', () => vite.close());
  await app.register(middie);
  app.use(vite.middlewares);
  const indexFile = path.join(webRoot, 'index.html');
  return async (url) => ({
    template: splitTemplate(await vite.transformIndexHtml(url, fs.readFileSync(indexFile, 'utf8')), indexFile),
    entry: (await vite.ssrLoadModule('/src/entry-server.tsx')) as unknown as ServerEntry,
    // (Vite's own modules bring the styles in development)
    pageStyles: { linked: [], forModule: () => EMPTY, chunksOf: () => EMPTY },
  });
}

/** A page's bytes, and the part of them every page of its module has. */
type Rendered = Pick<Page, 'body' | 'constant'>;

/** What a request renders to, ready to send. */
interface Page {
  status: number;
  body: Buffer;
  /** anonymous and alike for every visitor: public, and kept in the HTML cache */
  shared: boolean;
  etag?: string;
  /** from the HTML cache: each encoding of it is made once and kept with it */
  kept?: boolean;
  /** the part of `body` that every page of its module has (its inline stylesheet): deflated once (compressNow) */
  constant?: ConstantPart;
}

/**
 * Renders every page on the server (the web app's server entry, Vite's SSR build in
 * apps/web/dist-ssr) into the built index.html, for any GET that wants HTML and is not an
 * API route or a file. Anonymous pages are public (a CDN may keep them) and kept in an
 * in-process cache that follows the catalogue version; a signed-in user's are private.
 * Returns undefined when the web app is not built (the API still serves).
 */
export async function createPageRenderer(
  app: FastifyInstance,
  options: SsrOptions,
): Promise<PageRenderer | undefined> {
  let rendererFor: (url: string) => Promise<Renderer>;
  /** `npm run dev` only: its pages' policy (security-headers.ts) */
  let devCsp: string | undefined;
  if (options.devWebRoot) {
    rendererFor = await viteRenderer(app, options.devWebRoot);
    devCsp = developmentCsp();
  } else {
    const indexFile = path.join(options.webDist, 'index.html');
    const entryFile = path.join(path.dirname(options.webDist), 'dist-ssr', 'entry-server.js');
    if (!fs.existsSync(indexFile) || !fs.existsSync(entryFile)) return undefined;
    const pageStyles = readPageStyles(options.webDist);
    let html = fs.readFileSync(indexFile, 'utf8');
    // the first load's stylesheets come inline (pageStyles)
    for (const file of pageStyles.linked) html = withoutLink(html, file);
    // the app's code comes after the first paint
    html = deferAppScripts(html);
    const built: Renderer = {
      template: splitTemplate(html, indexFile),
      entry: (await import(pathToFileURL(entryFile).href)) as ServerEntry,
      pageStyles,
    };
    rendererFor = () => Promise.resolve(built);
  }
  const cache =
    options.htmlCacheMax > 0 && !options.devWebRoot
      ? new CatalogueCache<Buffer>(() => app.catalogueVersion(), { checkEveryMs: options.cacheCheckMs, maxEntries: options.htmlCacheMax })
      : undefined;
  // one teacher's change drops the pages it may show on (decision 107); [] is a reset: all
  app.catalogueFeed.onChange((changes) => {
    if (changes.length === 0) cache?.flush();
    else cache?.drop((url) => pageAffected(url, changes));
  });
  /** the footer's address as last read: every kept page shows it (a page rendered before a change is not kept) */
  let contact: string | null | undefined;
  async function followContact(): Promise<void> {
    const email = await options.contactEmail();
    if (email === contact) return;
    if (contact !== undefined) cache?.drop(() => true);
    contact = email;
  }

  /**
   * The page's bytes: the template's parts and the page module's styles are made once (most
   * of a page's bytes), only the head, the markup and the state are encoded per page; one
   * buffer, which the ETag, the compressor and the socket all take as it is.
   */
  const toHtml = (
    { template, pageStyles }: Renderer,
    result: Extract<RenderResult, { kind: 'page' }>,
  ): Rendered => {
    const styles = pageStyles.forModule(result.modules[0]);
    const before = [template.beforeHead, ...(result.head ? [Buffer.from(result.head), ...(styles.length > 0 ? [HEAD_SEPARATOR] : [])] : [])];
    const body = Buffer.concat([
      ...before,
      styles,
      template.beforeChunks,
      pageStyles.chunksOf(result.modules[0]),
      template.beforeHtml,
      result.htmlBytes ?? Buffer.from(result.html),
      template.beforeState,
      ...(result.state === null ? [] : [STATE_OPEN, Buffer.from(result.state), STATE_CLOSE]),
      template.end,
    ]);
    return { body, constant: { at: before.reduce((length, part) => length + part.length, 0), part: styles } };
  };

  /**
   * Renders a request in its turn (a few at a time: `renderTurns`); undefined when it was
   * answered with a redirect, or when its client left while it waited (nothing is rendered
   * for no one).
   */
  const renderPage = (request: FastifyRequest, reply: FastifyReply, url: string, anonymous: boolean, form?: FormEcho) =>
    // (a post's request stream is done with once its body is read: whether its client left is the socket's)
    options.renderTurns(() =>
      (form ? request.raw.socket?.destroyed : request.raw.destroyed) ? Promise.resolve(undefined) : renderNow(request, reply, url, anonymous, form),
    );

  async function renderNow(
    request: FastifyRequest,
    reply: FastifyReply,
    url: string,
    anonymous: boolean,
    form?: FormEcho,
  ): Promise<Page | undefined> {
    const setCookies: string[] = [];
    const renderer = await rendererFor(url);
    const result = await renderer.entry.render({
      url,
      api: inProcessApi(app, request, setCookies),
      sessionCookie: !anonymous,
      publicOrigin: options.publicOrigin,
      contactEmail: contact ?? null,
      ...(form && { form }),
    });
    if (setCookies.length > 0) reply.header('set-cookie', setCookies);
    // development: Vite's React refresh runs an inline module script and talks over a websocket
    if (devCsp) reply.header('content-security-policy', devCsp);
    if (result.kind === 'redirect') {
      reply.header('cache-control', PRIVATE_HTML).redirect(result.location, result.status);
      return undefined;
    }
    if (result.error !== undefined) request.log.error({ err: result.error }, 'server rendering failed');
    // (in development nothing is cached: the source changes under it)
    const shared =
      !options.devWebRoot && !form && anonymous && !privatePage(url) && !result.signedIn && result.sessionKnown && setCookies.length === 0;
    return { status: result.status, ...toHtml(renderer, result), shared };
  }

  return async (request, reply, form) => {
    try {
      return await answer(request, reply, form);
    } catch (error) {
      if (!(error instanceof QueueFull)) throw error;
      // more pages waiting than this server renders in a second or two: come back shortly
      return reply.code(503).header('retry-after', '1').header('cache-control', 'no-store').type('text/html; charset=utf-8').send(BUSY_PAGE);
    }
  };

  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    form?: { url: string; status: number; echo: FormEcho },
  ): Promise<FastifyReply> {
    await followContact();
    if (form) {
      const anonymous = !SESSION_COOKIE.test(request.headers.cookie ?? '');
      const page = await renderPage(request, reply, form.url, anonymous, form.echo);
      if (!page) return reply;
      const encoding = encodingNow(acceptedEncodings(request.headers['accept-encoding']), page);
      if (encoding) reply.header('content-encoding', encoding);
      return reply
        .code(page.status === 200 ? form.status : page.status)
        .header('vary', 'accept-encoding')
        .header('cache-control', PRIVATE_HTML)
        .type('text/html; charset=utf-8')
        .send(encoding ? compressNow(encoding, page) : page.body);
    }
    const target = pageTarget(request.url);
    if (target.kind === 'redirect') {
      // the same for every visitor: a CDN may keep it like an anonymous page
      return reply.header('cache-control', ANONYMOUS_HTML).redirect(target.location, 301);
    }
    if (target.kind === 'not-found') {
      return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    }
    const anonymous = !SESSION_COOKIE.test(request.headers.cookie ?? '');
    let page: Page | undefined;
    if (anonymous && cache && !privatePage(target.url)) {
      // Kept: shared pages that are the page (200) or the not-found page (404), as the bytes rendered.
      // A burst for one page not kept yet (after a catalogue change, say) renders it once:
      // the others wait for that render (CatalogueCache.get). When it cannot be kept (a
      // redirect, say) each of them renders for itself.
      let renderedHere = false;
      let rendered: Page | undefined;
      const entry = await cache
        .get(target.url, async () => {
          renderedHere = true;
          rendered = await renderPage(request, reply, target.url, true);
          if (!rendered?.shared || (rendered.status !== 200 && rendered.status !== 404)) throw new NotCacheable();
          return rendered.status === 200 ? rendered.body : { body: rendered.body, status: rendered.status };
        })
        .catch((error: unknown) => {
          if (error instanceof NotCacheable) return undefined;
          throw error;
        });
      // The request that rendered the page sends it as a page rendered for one response
      // (compressed now, at the fast level); the kept form is compressed at the better level
      // once a second request asks for it: most distinct pages are never asked for again
      // (a crawler's, a filter's rare combination), and their better form cost ~1 ms each on
      // the pool for nothing (decision 129).
      if (entry && renderedHere && rendered) page = { ...rendered, etag: entry.etag };
      else if (entry) page = cachedPage(entry);
      else page = renderedHere ? rendered : await renderPage(request, reply, target.url, true);
    } else {
      page = await renderPage(request, reply, target.url, anonymous);
    }
    if (!page) return reply; // a redirect, already sent
    // (pages are answered from the not-found handler, which @fastify/compress does not reach)
    const accepted = acceptedEncodings(request.headers['accept-encoding']);
    reply.header('vary', 'accept-encoding');
    let body: Buffer = page.body;
    let encoding: Encoding | undefined;
    if (!page.shared) {
      reply.header('cache-control', PRIVATE_HTML);
      // a form's toast, for the page it led back to (flash.ts; the page's parts move: nothing spliced)
      const flash = readFlash(request.headers.cookie);
      const sent: Rendered = flash ? { body: Buffer.from(withFlash(body.toString(), flash)) } : page;
      if (flash) reply.header('set-cookie', CLEAR_FLASH);
      encoding = encodingNow(accepted, sent);
      body = encoding ? compressNow(encoding, sent) : sent.body;
    } else {
      // a kept page: its kept forms (the better level); one rendered for this response: compressed now
      encoding = page.kept ? preferred(accepted) : encodingNow(accepted, page);
      // (the hash of the page's UTF-8 bytes)
      const identityEtag = page.etag ?? etagOf(page.body);
      // Each encoding is its own representation, with its own validator. A weak one: a kept
      // page's first response (compressed at once) and its later ones (the kept form) differ
      // in bytes, not in the page they decompress to (RFC 9110 8.8.1; If-None-Match compares
      // weakly, so either response's validator in that encoding is answered 304).
      const etag = encoding ? `W/"${identityEtag.slice(1, -1)}.${encoding}"` : identityEtag;
      reply.header('cache-control', ANONYMOUS_HTML).header('etag', etag);
      if (notModified(request, etag)) return reply.code(304).send();
      if (encoding && !page.kept) body = compressNow(encoding, page);
      else if (encoding) {
        const form = encodedForm(page, encoding);
        body = form instanceof Buffer ? form : await form;
      }
    }
    if (encoding) reply.header('content-encoding', encoding);
    return reply.code(page.status).type('text/html; charset=utf-8').send(body);
  }
}

/**
 * Answers a GET with its page; or, given `form`, renders the page at `form.url` again for a
 * refused form post with what was typed and the errors (private, never kept, `form.status`).
 */
export type PageRenderer = (
  request: FastifyRequest,
  reply: FastifyReply,
  form?: { url: string; status: number; echo: FormEcho },
) => Promise<FastifyReply>;

/**
 * Pages for whoever holds an e-mailed link (a booking's private link, a reset link, a teacher's
 * invitation): they show that link's state, which changes (cancelled, used), so none is kept
 * or shared. Nor is a teacher's booking page (its free times change with every booking).
 */
const PRIVATE_PAGE = /^\/(?:bookings\/|reset-password(?:[?#]|$)|invite(?:[?#]|$)|teachers\/[^/?#]+\/book(?:[?#]|$))/;
export const privatePage = (url: string) => PRIVATE_PAGE.test(url);

/** Longer paths are no page's (a teacher's is under 80 characters): 404 at once, nothing rendered or kept. */
export const PAGE_PATH_MAX = 2048;
const NOT_FOUND_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
  '<title>Page not found · LearnLingo</title></head><body><p>There is no such page. <a href="/">LearnLingo</a></p></body></html>';

/** What a request's URL renders: itself, a redirect to its normalised path, or nothing (404). */
export type PageTarget = { kind: 'page'; url: string } | { kind: 'redirect'; location: string } | { kind: 'not-found' };

/** A path segment that is `.` or `..`, percent-encoded or not (`%2e`, `.%2E`, …). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The page a request's URL names, as a path that is sure to stay on our origin. The URL is
 * the raw request target (`/.//evil.example/x` as a client sent it): parsed against any
 * origin, an empty segment or a dot segment in front can make it `//evil.example/x`, a URL
 * of another host, or no URL at all (`//`). Such a path is redirected to its normal form
 * (runs of `/` made one, `.` and `..` resolved, the query kept); a backslash (which browsers
 * read as `/`), raw or encoded, or a path past PAGE_PATH_MAX is no page: 404. A page's
 * path then starts with exactly one `/` and has neither `//` nor a dot segment in it.
 */
export function pageTarget(url: string): PageTarget {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  if (!path.startsWith('/') || path.length > PAGE_PATH_MAX || path.includes('\\') || /%5c/i.test(path)) {
    return { kind: 'not-found' };
  }
  const segments: string[] = [];
  const parts = path.split('/').slice(1);
  parts.forEach((segment, index) => {
    const last = index === parts.length - 1;
    if (DOT_SEGMENT.test(segment)) {
      if (segment.replace(/%2e/gi, '.') === '..') segments.pop();
      // `/a/.` and `/a/..` name a folder: `/a/` and `/`
      if (last) segments.push('');
    } else if (segment !== '' || last) segments.push(segment);
  });
  const normal = `/${segments.join('/')}`.replace(/\/{2,}/g, '/');
  return normal === path ? { kind: 'page', url } : { kind: 'redirect', location: normal + query };
}

/** More calls waiting than `limitConcurrency` lets wait. */
export class QueueFull extends Error {}

/** Pages waiting for a render past which a request is answered 503 at once (~1–2 s of renders). */
export const RENDER_QUEUE_MAX = 256;
const BUSY_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Busy · LearnLingo</title></head>' +
  '<body><p>LearnLingo is very busy right now. Please try again in a moment.</p></body></html>';

/**
 * At most `limit` calls of `run` at once; the others wait their turn, first come first served
 * (at most `maxWaiting` of them: past that a call fails at once with QueueFull).
 *
 * A page's render holds its request's objects (API answers, the store, React's tree, the
 * HTML) until it is sent. With every request rendering at once (20 under bench/ssr.mjs's
 * load) each lives through many young-generation collections, so V8 moves them to the old
 * generation and runs a full mark-compact every ~45 list pages: the server's CPU went to the
 * collector's threads. Rendering a few at a time (still overlapping their database waits)
 * lets them die young: 0–2 mark-compacts instead of 12–20 in the same 6 s, ~17 % less CPU
 * per list page (decision 073, addendum 2). In-process API requests never pass through here.
 */
export type RenderTurns = <T>(run: () => Promise<T>) => Promise<T>;

export function limitConcurrency(limit: number, maxWaiting = Number.POSITIVE_INFINITY): RenderTurns {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (active < limit) active += 1;
    else if (waiting.length >= maxWaiting) throw new QueueFull();
    // a finishing call hands its place straight to the next in line
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

type Encoding = 'br' | 'gzip';

/** Which of the two encodings a client accepts (`br;q=0` refuses br; `*` stands for those not named). */
export type Accepted = Record<Encoding, boolean>;

export function acceptedEncodings(header: string | undefined): Accepted {
  // (a header is at most Fastify's header size; each token is looked at once)
  const named: Partial<Record<Encoding | '*', boolean>> = {};
  for (const token of (header ?? '').split(',')) {
    const [name = '', ...params] = token.split(';');
    const coding = name.trim().toLowerCase();
    if (coding !== 'br' && coding !== 'gzip' && coding !== '*') continue;
    const q = params.map((param) => param.trim().toLowerCase()).find((param) => param.startsWith('q='));
    named[coding] = q === undefined || Number(q.slice(2)) > 0;
  }
  return { br: named.br ?? named['*'] ?? false, gzip: named.gzip ?? named['*'] ?? false };
}

/**
 * The encoding to send a kept page in: brotli, else gzip, when the client accepts it (every
 * browser and CDN does), else none. `Accept-Encoding: gzip, deflate, br, zstd`.
 */
export const preferred = (accepted: Accepted): Encoding | undefined => (accepted.br ? 'br' : accepted.gzip ? 'gzip' : undefined);

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Brotli's window for a body: the smallest that holds all of it (the same bytes as the
 * default 4 MB window for a page, which is all in the window either way), from 64 kB. Every
 * compression's encoder state counts as V8's external memory, and 20 pages' worth of 4 MB
 * windows a second had V8 collect far more often (decision 113).
 */
function windowBits(length: number): number {
  return Math.min(24, Math.max(16, Math.ceil(Math.log2(length + 1))));
}

const brotliParams = (input: Buffer, quality: number, fitWindow: boolean) => ({
  [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
  ...(fitWindow && { [zlib.constants.BROTLI_PARAM_LGWIN]: windowBits(input.length) }),
});

/** A constant part worth deflating once and splicing in (a page's inline stylesheet: ~15–31 kB). */
const SPLICE_MIN = 4096;

/**
 * A page rendered for one response (a distinct URL's first, a private page): compressed at
 * once on this thread (decision 113: the pool's hop and a stream's bookkeeping cost more
 * than they save here). When the client takes gzip and the page has its stylesheet inline,
 * gzip with the stylesheet deflated once and spliced in (spliced-gzip.ts, decision 130): a
 * 45 kB teacher page ~11.1 kB in ~0.13 ms, against brotli quality 2's ~11.8 kB in ~0.24 ms.
 * Else brotli quality 2, else gzip level 3.
 */
function encodingNow(accepted: Accepted, page: Rendered): Encoding | undefined {
  return accepted.gzip && splicedPart(page) ? 'gzip' : preferred(accepted);
}

function compressNow(encoding: Encoding, page: Rendered): Buffer {
  const constant = splicedPart(page);
  if (encoding === 'gzip' && constant) return splicedGzip(page.body, constant);
  return encoding === 'br' ? zlib.brotliCompressSync(page.body, { params: brotliParams(page.body, 2, true) }) : zlib.gzipSync(page.body, { level: 3 });
}

const splicedPart = ({ constant }: Rendered) => (constant && constant.part.length >= SPLICE_MIN ? constant : undefined);

/**
 * A page kept in the HTML cache, compressed once and sent many times: quality 6 (gzip 9), on
 * the thread pool, off the event loop: ~1 ms for ~9 % fewer bytes than quality 2. (Quality 11
 * saves 9 % more but costs ~55 ms a page, and a catalogue change drops the pages it is on.)
 * The default window: once per page, its memory does not add up, and the bytes are the ones
 * sent before (a fitted window moved a cached /teachers page by 15 bytes).
 */
function compressKept(encoding: Encoding, body: Buffer): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, { params: brotliParams(body, 6, false) }) : gzip(body, { level: 9 });
}

/**
 * A kept page in an encoding: compressed once per cache entry, then the same bytes for
 * every hit without waiting on anything.
 */
const encodedForms = new WeakMap<Page, Partial<Record<Encoding, Buffer | Promise<Buffer>>>>();
function encodedForm(page: Page, encoding: Encoding): Buffer | Promise<Buffer> {
  let forms = encodedForms.get(page);
  if (!forms) encodedForms.set(page, (forms = {}));
  const form = forms[encoding];
  if (form) return form;
  const compressing = compressKept(encoding, page.body);
  forms[encoding] = compressing;
  void compressing.then((bytes) => (forms[encoding] = bytes)).catch(() => delete forms[encoding]);
  return compressing;
}

/**
 * A cached page as it is sent, one per cache entry: its encoded forms (encodedForm) are
 * kept with it.
 */
const sentForms = new WeakMap<CachedResponse<Buffer>, Page>();
function cachedPage(entry: CachedResponse<Buffer>): Page {
  let page = sentForms.get(entry);
  if (!page) {
    page = { status: entry.status ?? 200, body: entry.body, shared: true, etag: entry.etag, kept: true };
    sentForms.set(entry, page);
  }
  return page;
}

/** Thrown out of a cache fill for a page that must not be kept (redirect, 500, private). */
class NotCacheable extends Error {}
