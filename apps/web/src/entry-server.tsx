import { StrictMode, type ReactNode } from 'react';
import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { Provider } from 'react-redux';
import { matchRoutes, StaticRouter, type RouteObject } from 'react-router';
import { isSession, type RenderRequest, type RenderResult, type Role } from '@learnlingo/contract/plain';
// every page's data lives in RTK Query's slice: it joins the store before any is made
import './lib/api';
import { forgetStore, makeStore, rootReducer, type AppStore, type StoreExtra } from './store';
import { AppRoutes, RouteTable, type RouteHandle } from './app/router';
import { routesFor, routesForRender } from './app/route-table';
import { RouteError } from './app/route-error';
import { refreshFinished, signedIn } from './features/auth';
// (the api module alone: the feature's index would bring its components into the entry)
import { favoritesRead } from './features/favorites/api/favorites-api';
import { absoluteUrl, DEFAULT_DESCRIPTION, HeadContext, type PageHead } from './lib/head';
import { SSR_ORIGIN } from './lib/ssr-origin';
import { apiOverFetch, serverBaseQuery, type InProcessApi } from './lib/server-query';

/** No page takes this long to render once its data is in: a hung render answers 500. */
const RENDER_TIMEOUT_MS = 10_000;

type SessionAnswer = { user: { name: string; email: string; role?: Role } | null } | 'unknown';

async function readSession(api: InProcessApi, { sessionCookie }: RenderRequest): Promise<SessionAnswer> {
  // a visitor without a session cookie has no session: nothing to ask
  if (!sessionCookie) return { user: null };
  try {
    const answer = await api({ method: 'GET', url: '/api/auth/get-session', headers: { accept: 'application/json' } });
    const body: unknown = answer.status >= 200 && answer.status <= 299 ? JSON.parse(answer.body) : undefined;
    if (!isSession(body)) return 'unknown';
    return { user: body && { name: body.user.name, email: body.user.email, role: body.user.role } };
  } catch {
    return 'unknown';
  }
}

/**
 * The markup of a React tree once everything in it is ready (lazy pages loaded, no
 * fallback left), with React's streaming renderer for Node (`renderToPipeableStream`,
 * which writes Node buffers: the web-streams renderer's readable stream, text encoder and
 * Fetch `Response` cost more per page). An error anywhere (which the browser would have to
 * render again) rejects: the server answers with the error page instead; so does a render
 * still waiting for something after `timeoutMs`.
 */
export function renderToHtml(element: ReactNode, timeoutMs = RENDER_TIMEOUT_MS): Promise<string> {
  return renderToBytes(element, timeoutMs).then((bytes) => bytes.toString('utf8'));
}

/** renderToHtml's markup as React wrote it, UTF-8 (what the server sends: no string made and encoded again). */
function renderToBytes(element: ReactNode, timeoutMs = RENDER_TIMEOUT_MS): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let renderError: unknown;
    const chunks: Buffer[] = [];
    const fail = (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)));
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      // (piped only once everything rendered without an error)
      final(done) {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks));
        done();
      },
    });
    // (the timer fires long after `stream` is assigned)
    const timer = setTimeout(() => stream.abort(new Error('The page took too long to render')), timeoutMs);
    const stream = renderToPipeableStream(element, {
      // never split a large boundary out of line (the default past 12.8 kB): that needs an
      // inline script, which the CSP refuses, and JavaScript, which a page must not need
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady() {
        if (renderError === undefined) stream.pipe(sink);
        else {
          clearTimeout(timer);
          stream.abort();
          fail(renderError);
        }
      },
      onShellError(error) {
        clearTimeout(timer);
        fail(error);
      },
      onError(error) {
        renderError ??= error;
      },
    });
  });
}

/** A boundary that suspended while rendering: React streams it apart, behind an inline script. */
const SUSPENDED_BOUNDARY = '<!--$?-->';

/**
 * The markup with every boundary in place. A lazy component (a page's modal, the toaster)
 * suspends the first time it renders in this process and React then sends its part out of
 * line with an inline script, which the CSP refuses and which needs JavaScript: rendering
 * again, with the code now loaded, puts it in place. Only a process's first renders pay this.
 */
async function renderComplete(element: () => ReactNode): Promise<Buffer> {
  let html = await renderToBytes(element());
  for (let attempt = 1; attempt < 3 && html.includes(SUSPENDED_BOUNDARY); attempt += 1) {
    html = await renderToBytes(element());
  }
  return html;
}

/**
 * A page's result with its markup as bytes (`htmlBytes`, which the server sends as they are)
 * and as a string made only when something reads `html` (tests, tools): a page's markup is
 * tens of kilobytes, and the server would otherwise decode it here and encode it again.
 */
function withMarkup<T extends object>(result: T, bytes: Buffer): T & { html: string; htmlBytes: Uint8Array } {
  let text: string | undefined;
  return Object.defineProperties(result, {
    html: { enumerable: true, get: () => (text ??= bytes.toString('utf8')) },
    htmlBytes: { enumerable: true, value: bytes },
  }) as T & { html: string; htmlBytes: Uint8Array };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
/** JSON inside a <script> element: nothing in it can close the element or open a comment. */
const SCRIPT_UNSAFE: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };
// (one pass over the JSON, which is most of a page's state: tens of kilobytes)
const scriptSafe = (json: string) => json.replace(/[<>&]/g, (char) => SCRIPT_UNSAFE[char] ?? char);
export const scriptJson = (value: unknown) => scriptSafe(JSON.stringify(value));

/** The <head> tags of a page: title, description, canonical, robots, Open Graph, Twitter, JSON-LD. */
export function headTags(head: PageHead, pathname: string, publicOrigin: string): string {
  const description = head.description ?? DEFAULT_DESCRIPTION;
  const url = absoluteUrl(publicOrigin, head.canonicalPath ?? pathname);
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    meta('name', 'description', description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...(head.noindex ? [meta('name', 'robots', 'noindex, follow')] : []),
    meta('property', 'og:site_name', 'LearnLingo'),
    meta('property', 'og:type', head.type ?? 'website'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    ...(head.image ? [meta('property', 'og:image', head.image)] : []),
    meta('name', 'twitter:card', 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', description),
    ...(head.jsonLd ? [`<script type="application/ld+json">${scriptJson(head.jsonLd)}</script>`] : []),
  ];
  return tags.join('\n    ');
}

/** The head a page's components ask for while it renders (lib/head's useHead). */
class HeadCollected {
  head: PageHead = { title: 'LearnLingo' };
  set(head: PageHead): void {
    this.head = head;
  }
}

function page(store: AppStore, url: string, table: RouteObject[], collector?: HeadCollected) {
  return (
    <StrictMode>
      <HeadContext value={collector ?? null}>
        <Provider store={store}>
          <StaticRouter location={url}>
            <RouteTable value={table}>
              <AppRoutes />
            </RouteTable>
          </StaticRouter>
        </Provider>
      </HeadContext>
    </StrictMode>
  );
}

/** Each slice's state before anything happened, as JSON. */
const initialSlices = Object.entries(rootReducer(undefined, { type: 'ssr/initial' })).map(
  ([key, value]) => [key, JSON.stringify(value)] as const,
);

/** Slices of a page's code that the browser needs when they hold something (features/auth/form-echo-slice.ts). */
const LAZY_SENT = ['formEcho'] as const;
const LAZY_EMPTY = JSON.stringify({ echo: null });

/**
 * The store as the browser needs it: slices still in their initial state are left out (the
 * browser makes them itself, including those whose code it loads later), except the
 * favourites the page read from the server.
 */
function stateForBrowser(store: AppStore): string {
  const state = store.getState() as unknown as Record<string, unknown>;
  // (the favourites the page read: sent even when empty, else the browser takes its own older copy)
  const teachersKept = favoritesRead(store.getState());
  // each slice turned into JSON once: compared with its initial JSON, and sent as it is
  const changed = initialSlices.flatMap(([key, initial]) => {
    const json = JSON.stringify(state[key]) as string | undefined;
    const kept = key === 'teachers' && teachersKept;
    return json === undefined || (json === initial && !kept) ? [] : [`${JSON.stringify(key)}:${json}`];
  });
  // a slice that joined with a page's code (a refused form's echo) and holds something
  for (const key of LAZY_SENT) {
    const json = state[key] === undefined ? LAZY_EMPTY : JSON.stringify(state[key]);
    if (json !== LAZY_EMPTY) changed.push(`${JSON.stringify(key)}:${json}`);
  }
  return scriptSafe(`{${changed.join(',')}}`);
}

/** Whether a query the page prefetched failed on the server's side (not a 4xx the page shows). */
function serverFailed(store: AppStore): boolean {
  const queries = store.getState().api?.queries ?? {};
  return Object.values(queries).some((query) => {
    if (query?.status !== 'rejected') return false;
    const status = (query.error as { status?: unknown } | undefined)?.status;
    return typeof status !== 'number' || status >= 500;
  });
}

/**
 * Renders one request: reads the session from its cookie, matches the route, redirects a
 * visitor away from signed-in pages, fetches what the page reads into a store made for
 * this request alone, and renders the page with it. The store travels to the browser,
 * which hydrates the same markup without fetching again.
 */
export async function render(request: RenderRequest): Promise<RenderResult> {
  const api = request.api ?? apiOverFetch(request.fetch);
  const extra: StoreExtra = { serverQuery: serverBaseQuery(api) };
  const store = makeStore({ config: { contactEmail: request.contactEmail } }, extra);
  try {
    return await renderWith(store, api, request);
  } finally {
    forgetStore(store);
    // Some stores outlive their page: React keeps the last page's context values (its store
    // among them) until it renders the next, and a code chunk first loaded while React
    // renders keeps that render's tree for good (the chunk's module promise carries React's
    // AsyncLocalStorage context). Such a store holds neither the request nor its cookie.
    // (decision 100)
    delete extra.serverQuery;
  }
}

async function renderWith(store: AppStore, api: InProcessApi, request: RenderRequest): Promise<RenderResult> {
  const location = new URL(request.url, SSR_ORIGIN);
  const session = await readSession(api, request);
  const user = session === 'unknown' ? null : session.user;
  if (user) store.dispatch(signedIn(user));
  else if (session !== 'unknown') store.dispatch(refreshFinished());

  // (the route table cut to this path, for this call and the render's: decision 136)
  const table = routesFor(location.pathname);
  const matches = matchRoutes(table, location.pathname) ?? [];
  const leaf = matches.at(-1);
  const handle = leaf?.route.handle as RouteHandle | undefined;

  let status = 200;
  try {
    const pageModule = await handle?.load();
    const outcome = await pageModule?.prefetch?.({
      dispatch: store.dispatch,
      params: leaf?.params ?? {},
      pathname: location.pathname,
      searchParams: location.searchParams,
      signedIn: Boolean(user),
      role: user?.role,
      ...(request.form && { form: request.form }),
    });
    // a visitor asking for a signed-in page (when the session could not be read, the page decides in the browser)
    if (outcome === 'visitor' && session !== 'unknown') return { kind: 'redirect', status: 302, location: '/' };
    if (typeof outcome === 'object') return { kind: 'redirect', status: 301, location: outcome.canonical };
    if (outcome === 'not-found') status = 404;
    else if (outcome === 'gone') status = 410;
    else if (serverFailed(store)) status = 500;

    // (an object, not a closure over this request: React keeps the last value it was given)
    const collected = new HeadCollected();
    const renderTable = routesForRender(location.pathname, request.url.split(/[?#]/, 1)[0] ?? '');
    const html = await renderComplete(() => page(store, request.url, renderTable, collected));
    return withMarkup(
      {
        kind: 'page' as const,
        status,
        head: headTags(collected.head, location.pathname, request.publicOrigin),
        state: stateForBrowser(store),
        signedIn: Boolean(user),
        sessionKnown: session !== 'unknown',
        modules: handle ? [`src/app/pages/${handle.module}.tsx`] : [],
      },
      html,
    );
  } catch (error) {
    // the error page, as the browser shows a routing failure (what failed stays in the
    // server: the page says only the status); the browser renders anew
    const html = await renderToHtml(
      <Provider store={store}>
        <StaticRouter location={request.url}>
          <RouteError error={{ status: 500, statusText: 'Internal Server Error' }} />
        </StaticRouter>
      </Provider>,
    );
    return {
      kind: 'page',
      status: 500,
      head: headTags({ title: 'Unexpected Application Error! · LearnLingo', noindex: true }, location.pathname, request.publicOrigin),
      html,
      state: null,
      signedIn: Boolean(user),
      sessionKnown: session !== 'unknown',
      modules: [],
      error,
    };
  }
}
