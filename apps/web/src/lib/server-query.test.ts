import { describe, expect, it } from 'vitest';
import { fetchBaseQuery, type BaseQueryApi, type FetchArgs } from '@reduxjs/toolkit/query/react';
import type { ApiAnswer, ApiRequest } from '@learnlingo/contract/plain';
import { serverBaseQuery } from './server-query';
import { SSR_ORIGIN } from './ssr-origin';

/** What a request asked, however it came (a Fetch API Request or the in-process API's object). */
type Asked = { method: string; url: string; headers: Record<string, string>; body: string | undefined };
type Responder = (asked: Asked) => ApiAnswer;

const queryApi = { signal: new AbortController().signal, abort: () => undefined, dispatch: () => undefined, getState: () => ({}), extra: {}, endpoint: 'test', type: 'query' } as unknown as BaseQueryApi;

/** The same args through RTK's fetchBaseQuery (baseUrl `/api`) and through serverBaseQuery, against one responder. */
async function both(args: string | FetchArgs, respond: Responder) {
  const seen: { viaFetch?: Asked; inProcess?: Asked } = {};
  const viaFetch = fetchBaseQuery({
    baseUrl: `${SSR_ORIGIN}/api`,
    // (fetchBaseQuery calls it with its Request alone)
    fetchFn: async (input) => {
      const request = input as Request;
      const url = new URL(request.url);
      const asked: Asked = {
        method: request.method,
        url: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body: request.body ? await request.text() : undefined,
      };
      seen.viaFetch = asked;
      const answer = respond(asked);
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) headers.set(name, String(value));
      const empty = answer.status === 204 || answer.status === 304;
      return new Response(empty ? null : answer.body, { status: answer.status, headers });
    },
  });
  const inProcess = serverBaseQuery(async (request: ApiRequest) => {
    const asked: Asked = { method: request.method, url: request.url, headers: request.headers, body: request.body };
    seen.inProcess = asked;
    return respond(asked);
  });
  const fetched = await viaFetch(args, queryApi, {});
  const served = await inProcess(args, queryApi, {});
  return { fetched, served, seen };
}

const json = (status: number, value: unknown, headers: ApiAnswer['headers'] = {}): Responder => () => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(value),
});

describe('serverBaseQuery: fetchBaseQuery without the Fetch API objects', () => {
  it('asks what fetchBaseQuery asks, and answers the same data', async () => {
    const cases: (string | FetchArgs)[] = [
      '/teachers/t1',
      'teachers/t1',
      { url: '/teachers', params: { language: 'French', cursor: undefined, limit: 4 } },
      { url: '/teachers?sort=price-asc', params: { level: 'A1 Beginner' } },
      { url: '/favorites/t1', method: 'put', body: { note: 'é <ok>' } },
      { url: '/echo', method: 'POST', body: 'plain words' },
      { url: '/form', method: 'POST', body: new URLSearchParams({ a: '1', b: 'two words' }) },
      { url: '/teachers', headers: { 'X-Thing': 'yes', Accept: 'text/html' } },
    ];
    for (const args of cases) {
      const { fetched, served, seen } = await both(args, json(200, { items: [1, 'two'], total: 2 }));
      expect(seen.inProcess, JSON.stringify(args)).toEqual(seen.viaFetch);
      expect(served.data).toEqual(fetched.data);
      expect(served.error).toBeUndefined();
    }
  });

  it('answers errors as fetchBaseQuery does: a status with its JSON, a body that is not JSON, an empty answer', async () => {
    const notFound = await both('/teachers/t9', json(404, { error: { code: 'NOT_FOUND', message: 'No teacher' } }));
    expect(notFound.served.error).toEqual({ status: 404, data: { error: { code: 'NOT_FOUND', message: 'No teacher' } } });
    expect(notFound.served.error).toEqual(notFound.fetched.error);

    const broken = await both('/teachers', () => ({ status: 502, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' }));
    expect(broken.served.error).toMatchObject({ status: 'PARSING_ERROR', originalStatus: 502, data: '<h1>Bad gateway</h1>' });
    expect(broken.served.error).toEqual(broken.fetched.error);

    const empty = await both({ url: '/favorites/t1', method: 'DELETE' }, () => ({ status: 204, headers: {}, body: '' }));
    expect(empty.served.data).toBeNull();
    expect(empty.served.data).toEqual(empty.fetched.data);
  });

  it("a text answer with its own validateStatus, and the answer's headers in meta (a redirect's Location, a 429's Retry-After)", async () => {
    const redirect = await both(
      { url: '/auth/reset-password/tok', responseHandler: 'text', validateStatus: (response) => response.status >= 300 && response.status < 400 },
      () => ({ status: 302, headers: { location: '/reset-password?token=tok' }, body: '' }),
    );
    expect(redirect.seen.inProcess).toEqual(redirect.seen.viaFetch);
    expect(redirect.served.data).toBe('');
    expect(redirect.served.meta?.response?.status).toBe(302);
    expect(redirect.served.meta?.response?.headers.get('location')).toBe('/reset-password?token=tok');

    const limited = await both('/bookings', json(429, { error: { code: 'RATE_LIMITED' } }, { 'retry-after': '30', 'set-cookie': ['a=1', 'b=2'] }));
    expect(limited.served.error).toEqual(limited.fetched.error);
    expect(limited.served.meta?.response?.headers.get('retry-after')).toBe('30');
    expect(limited.served.meta?.request?.url).toBe(`${SSR_ORIGIN}/api/bookings`);
  });

  it('an in-process API that fails is a FETCH_ERROR, as a fetch that throws', async () => {
    const failing = serverBaseQuery(() => Promise.reject(new Error('closing')));
    expect((await failing('/teachers', queryApi, {})).error).toEqual({ status: 'FETCH_ERROR', error: 'Error: closing' });
  });
});
