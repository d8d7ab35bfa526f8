import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { inProcessApi } from './ssr.js';

/*
 * A render's API answers reach it in the order it asked for them (issue 29): the page's state
 * (RTK Query keeps its `provided` tags in the order answers come) must not depend on which of
 * two concurrent reads the database finished first.
 */

/** An app whose inject() answers each URL after `delays[url]` ms (no direct reader: every read is inject()'s). */
function appAnswering(delays: Record<string, number>, fail: string[] = []): FastifyInstance {
  return {
    hasRoute: () => false,
    inject: async ({ url }: { url: string }) => {
      await new Promise((resolve) => setTimeout(resolve, delays[url] ?? 0));
      if (fail.includes(url)) throw new Error(`${url} failed`);
      return { statusCode: 200, headers: {}, payload: JSON.stringify({ url }) };
    },
  } as unknown as FastifyInstance;
}

const visitor = { headers: {}, ip: '127.0.0.1' } as unknown as FastifyRequest;
const get = (url: string) => ({ method: 'GET', url, headers: {} });

describe('inProcessApi', () => {
  it('hands the answers over in the order they were asked, whichever finished first', async () => {
    const api = inProcessApi(appAnswering({ '/api/slow': 30, '/api/fast': 0 }), visitor, []);
    const order: string[] = [];
    await Promise.all([
      api(get('/api/slow')).then((a) => order.push(JSON.parse(a.body).url)),
      api(get('/api/fast')).then((a) => order.push(JSON.parse(a.body).url)),
    ]);
    expect(order).toEqual(['/api/slow', '/api/fast']);
  });

  it('still answers each read at once when the reads are made one after the other', async () => {
    const api = inProcessApi(appAnswering({ '/api/a': 0 }), visitor, []);
    expect(JSON.parse((await api(get('/api/a'))).body)).toEqual({ url: '/api/a' });
    expect(JSON.parse((await api(get('/api/b'))).body)).toEqual({ url: '/api/b' });
  });

  it("a failed read fails its own call only, in its turn; the next still comes", async () => {
    const api = inProcessApi(appAnswering({ '/api/slow': 30, '/api/broken': 0 }, ['/api/broken']), visitor, []);
    const order: string[] = [];
    await Promise.allSettled([
      api(get('/api/slow')).then(() => order.push('slow')),
      api(get('/api/broken')).catch((error: Error) => order.push(error.message)),
      api(get('/api/after')).then(() => order.push('after')),
    ]);
    expect(order).toEqual(['slow', '/api/broken failed', 'after']);
  });
});
