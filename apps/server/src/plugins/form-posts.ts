import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { returnPath } from '@learnlingo/contract';
import { toHeaders } from './auth.js';
import { HttpError } from './errors.js';

/*
 * What the pages' own form posts share (/login, /register, a heart: decision 105): the
 * `application/x-www-form-urlencoded` body, the same-origin rule and the return path.
 */

/** Each field of a form post is at most this long (the password rule caps at 48). */
export const FIELD_MAX = 2000;

/** Where to go back to: a path on this site, or undefined (refused): the contract's rule. */
export const safeNext = (value: string | undefined) => returnPath(value);

/**
 * Registers a parser for form posts in this scope only (the API outside it still answers
 * 415 to anything but JSON). Each field becomes a string (the first, when repeated).
 */
export function acceptFormPosts(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(body as string)) {
      if (!(key in fields)) fields[key] = value.slice(0, FIELD_MAX + 1);
    }
    done(null, fields);
  });
}

/** The posted fields (empty when the body was not a form). */
export function formFields(request: FastifyRequest): Record<string, string> {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, string>) : {};
}

/**
 * A form post must come from one of this site's pages, whether or not it carries a cookie:
 * signing someone in from another site (into the attacker's account) is an attack too. A
 * browser names the page's origin in `Origin` (every browser does on a POST), or at least
 * says `Sec-Fetch-Site`; a request with neither is not from a browser (decision 008).
 */
export function refuseCrossSite(trustedOrigins: string[]) {
  const trusted = new Set(trustedOrigins);
  return async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    const sameOrigin = origin !== undefined ? trusted.has(origin) : fetchSite === undefined || fetchSite === 'same-origin';
    if (!sameOrigin) throw new HttpError(403, 'FORBIDDEN', 'Cross-site request refused');
  };
}

/**
 * A form post handed to better-auth's own handler as the JSON request the app would send, in
 * process, with the post's headers: its rules and messages (auth-rules.ts), origin check and
 * rate limit apply as they do to the app. Its 5xx is the server's failure, thrown.
 */
export function authCaller(app: FastifyInstance, publicOrigin: string) {
  return async (request: FastifyRequest, endpoint: string, body: Record<string, unknown>): Promise<Response> => {
    const headers = toHeaders(request);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    headers.delete('content-encoding');
    const response = await app.auth.handler(
      new Request(new URL(`/api/auth${endpoint}`, publicOrigin), { method: 'POST', headers, body: JSON.stringify(body) }),
    );
    if (response.status >= 500) {
      request.log.error({ status: response.status, endpoint }, 'form post to better-auth failed');
      throw new Error(`better-auth answered ${response.status}`);
    }
    return response;
  };
}

/** better-auth's 429 says when to try again (`X-Retry-After`, seconds): the page's answer says it too. */
export function passRetryAfter(reply: FastifyReply, response: Response): void {
  const wait = response.headers.get('x-retry-after');
  if (response.status === 429 && wait !== null && /^\d{1,6}$/.test(wait)) reply.header('retry-after', wait);
}
