import type { BaseQueryFn, FetchArgs, FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query/react';
import type { ApiAnswer, ApiRequest } from '@learnlingo/contract/plain';
import { SSR_ORIGIN } from './ssr-origin';

/** The in-process API, as the server gives it to the renderer (contract RenderRequest's `api`). */
export type InProcessApi = (request: ApiRequest) => Promise<ApiAnswer>;

export type ServerBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta>;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === null || proto === Object.prototype;
};
/** fetchBaseQuery's: what it sends as JSON */
const isJsonifiable = (body: unknown) =>
  typeof body === 'object' &&
  body !== null &&
  (isPlainObject(body) || Array.isArray(body) || typeof (body as { toJSON?: unknown }).toJSON === 'function');
const withoutUndefined = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined)) as Record<string, string>;

/** Node's header values as the Fetch API's Headers (each of a repeated header its own entry). */
function toHeaders(headers: ApiAnswer['headers']): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [String(value)]) result.append(name, item);
  }
  return result;
}

/** A request's headers as fetchBaseQuery would send them (lower-case names). */
function requestHeaders(given: FetchArgs['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!given) return headers;
  const entries = given instanceof Headers ? [...given.entries()] : Array.isArray(given) ? given : Object.entries(given);
  for (const [name, value] of entries) if (value !== undefined) headers[name.toLowerCase()] = String(value);
  return headers;
}

/**
 * RTK Query's base query on the server: what fetchBaseQuery (`baseUrl` `/api`) does for a
 * request — the URL with its params, a JSON body, `accept`, the answer read as JSON or text,
 * `validateStatus` — with the in-process API's plain objects instead of a Request, its clone,
 * an AbortSignal, a Response, its clone and two reads of its body per call: a page's API
 * answers are tens of kilobytes, and these were a tenth of a page's CPU under load (issue 29).
 * `meta.request` and `meta.response` (headers and status, no body) are made only when
 * something reads them (a 429's Retry-After, checkResetLink's Location).
 */
export function serverBaseQuery(api: InProcessApi): ServerBaseQuery {
  return async (arg) => {
    const {
      url: path,
      method = 'GET',
      params,
      body: given,
      headers: givenHeaders,
      responseHandler = 'json',
      validateStatus,
    } = typeof arg === 'string' ? ({ url: arg } as FetchArgs) : arg;
    let url = path;
    if (params) url += (url.includes('?') ? '&' : '?') + new URLSearchParams(withoutUndefined(params as Record<string, unknown>)).toString();
    // joinUrls(`${SSR_ORIGIN}/api`, url), for the paths the endpoints give (relative to /api)
    url = url.startsWith('?') ? `/api${url}` : `/api/${url.replace(/^\/+/, '')}`;
    const headers = requestHeaders(givenHeaders);
    let body: string | undefined;
    if (given != null) {
      if (typeof given === 'string') {
        // (as a Request made with it says)
        headers['content-type'] ??= 'text/plain;charset=UTF-8';
        body = given;
      } else if (isJsonifiable(given)) {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(given);
      } else if (given instanceof URLSearchParams) {
        headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
        body = given.toString();
      } else {
        return { error: { status: 'FETCH_ERROR', error: 'This body cannot be sent in-process' } };
      }
    }
    if (headers.accept === undefined) {
      if (responseHandler === 'json') headers.accept = 'application/json';
      else if (responseHandler === 'text') headers.accept = 'text/plain, text/html, */*';
    }
    const request: ApiRequest = { method: method.toUpperCase(), url, headers, ...(body !== undefined && { body }) };
    let answer: ApiAnswer;
    try {
      answer = await api(request);
    } catch (error) {
      return { error: { status: 'FETCH_ERROR', error: String(error) } };
    }
    let response: Response | undefined;
    let sent: Request | undefined;
    const meta = {
      get request() {
        return (sent ??= new Request(SSR_ORIGIN + url, { method: request.method, headers, ...(body !== undefined && { body }) }));
      },
      get response() {
        return (response ??= new Response(null, { status: answer.status, headers: toHeaders(answer.headers) }));
      },
    } as FetchBaseQueryMeta;
    let data: unknown;
    try {
      if (typeof responseHandler === 'function') {
        data = await responseHandler(new Response(answer.body === '' ? null : answer.body, { status: answer.status, headers: toHeaders(answer.headers) }));
      } else {
        const json =
          responseHandler === 'json' ||
          (responseHandler === 'content-type' && /ion\/(vnd\.api\+)?json/i.test(String(answer.headers['content-type'] ?? '')));
        data = json ? (answer.body.length > 0 ? JSON.parse(answer.body) : null) : answer.body;
      }
    } catch (error) {
      return { error: { status: 'PARSING_ERROR', originalStatus: answer.status, data: answer.body, error: String(error) }, meta };
    }
    const ok = validateStatus ? validateStatus(meta.response as Response, data) : answer.status >= 200 && answer.status <= 299;
    return ok ? { data, meta } : { error: { status: answer.status, data }, meta };
  };
}

/**
 * The in-process API over a Fetch API `fetch` (tests and tools that give the renderer one):
 * the same answers, through Request and Response.
 */
export function apiOverFetch(fetch: (request: Request) => Promise<Response>): InProcessApi {
  return async ({ method, url, headers, body }) => {
    const response = await fetch(new Request(SSR_ORIGIN + url, { method, headers, ...(body !== undefined && { body }) }));
    const answerHeaders: ApiAnswer['headers'] = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') answerHeaders[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) answerHeaders['set-cookie'] = cookies;
    return { status: response.status, headers: answerHeaders, body: await response.text() };
  };
}
