import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';
import { APP_LOADER_CSP_SOURCE } from './app-loader.js';

export const DOCS_PREFIX = '/api/docs';

/** Swagger UI runs inline scripts and styles: it gets its own, looser policy, on its pages only. */
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Security headers on every response (API, static files, errors) via helmet, whose
 * middleware is built ONCE here and run in an onRequest hook (@fastify/helmet built a new
 * helmet — CSP directives parsed anew — for every request: ~4 % of the server's CPU profile
 * under catalogue load, decision 011 addendum 2). The app's
 * CSP: scripts only from this origin; styles from this origin plus inline <style>
 * elements (the toast library injects its CSS at run time); images from this origin and
 * data: URLs (teachers' pictures are served from this origin, decision 093); no framing.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const applyHeaders = createHelmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url === DOCS_PREFIX || request.url.startsWith(`${DOCS_PREFIX}/`)) {
      reply.header('content-security-policy', DOCS_CSP);
    }
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    return payload;
  });
}

const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=()';

/**
 * The same headers as a fixed list, for the answers no hook sees: Fastify's framework
 * errors (a malformed or too-long URL) and the raw replies to unparsable requests (431…).
 * helmet's headers do not depend on the request, so they are computed once.
 */
export function securityHeaderList(options: { https: boolean }): [string, string][] {
  const headers = headersOf(createHelmet(options));
  headers.set('permissions-policy', PERMISSIONS_POLICY);
  return [...headers];
}

/** The headers a helmet middleware sets, by lower-case name (they do not depend on the request). */
function headersOf(middleware: (req: never, res: never, next: (error?: unknown) => void) => void): Map<string, string> {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  middleware({} as never, collector as never, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** The app's content security policy, as helmet's directives. */
function appCspDirectives(options: { https: boolean }) {
  return {
    defaultSrc: ["'self'"],
    // this origin's files, and the one inline script that loads the app after the first paint
    scriptSrc: ["'self'", APP_LOADER_CSP_SOURCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    // teachers' pictures come from this origin too (/avatars/…, decision 093)
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    scriptSrcAttr: ["'none'"],
    ...(options.https ? { upgradeInsecureRequests: [] } : {}),
  };
}

/**
 * `npm run dev`'s policy for its pages: the app's, plus what Vite's hot reload needs (React
 * refresh's inline module script, and its websocket).
 */
export function developmentCsp(): string {
  const directives = { ...appCspDirectives({ https: false }), scriptSrc: ["'self'", "'unsafe-inline'"], connectSrc: ["'self'", 'ws:', 'wss:'] };
  const header = headersOf(helmet.contentSecurityPolicy({ useDefaults: false, directives })).get('content-security-policy');
  // without it the page would keep the app's own policy, under which Vite's client cannot run
  if (!header) throw new Error('helmet wrote no development content security policy');
  return header;
}

function createHelmet(options: { https: boolean }) {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: appCspDirectives(options) },
    // HSTS only means something over HTTPS.
    strictTransportSecurity: options.https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}
