import { describe, expect, it } from 'vitest';
import { CatalogueCache, etagOf, notModified } from './catalogue-cache.js';
import { cursorScope } from '../model/cursor.js';
import { CardCache } from '../sql/teachers-repository.js';

describe('CatalogueCache.get', () => {
  it('requests for a key being computed wait for that computation; after a version change they do not', async () => {
    let version = 1;
    const cache = new CatalogueCache(async () => version, { checkEveryMs: 0, maxEntries: 10 });
    let calls = 0;
    let finish!: () => void;
    const slow = () => {
      calls += 1;
      return new Promise<string>((resolve) => (finish = () => resolve(`body ${calls}`)));
    };
    const first = cache.get('k', slow);
    const second = cache.get('k', slow);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(1);
    finish();
    expect((await first).body).toBe('body 1');
    expect((await second).body).toBe('body 1');

    version = 2;
    const stale = cache.get('k2', slow);
    await new Promise((resolve) => setImmediate(resolve));
    const finishStale = finish;
    version = 3;
    const fresh = cache.get('k2', slow);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(3); // the request after the change computed for itself
    finishStale();
    finish();
    await Promise.all([stale, fresh]);
  });

  it('keeps bytes as they are, with a status other than 200 when the fill gives one', async () => {
    const cache = new CatalogueCache<Buffer>(async () => 1, { checkEveryMs: 0, maxEntries: 10 });
    const page = Buffer.from('<p>é</p>');
    const kept = await cache.get('/page', async () => page);
    expect(kept.body).toBe(page);
    expect(kept.status).toBeUndefined();
    expect(kept.etag).toBe(etagOf('<p>é</p>'));
    const missing = await cache.get('/missing', async () => ({ body: Buffer.from('gone'), status: 404 }));
    expect(missing.status).toBe(404);
    expect(await cache.get('/missing', async () => Buffer.from('not asked'))).toBe(missing);
  });

  it('If-None-Match compares weakly: a weak validator of ours or of the request matches its strong twin', () => {
    const ask = (header: string) => ({ headers: { 'if-none-match': header } });
    expect(notModified(ask('"a.br"'), 'W/"a.br"')).toBe(true);
    expect(notModified(ask('W/"a.br"'), 'W/"a.br"')).toBe(true);
    expect(notModified(ask('"x", W/"a.br"'), '"a.br"')).toBe(true);
    expect(notModified(ask('"a"'), 'W/"a.br"')).toBe(false);
    expect(notModified({ headers: {} }, 'W/"a.br"')).toBe(false);
  });

  it('with no entries kept, each request computes its own', async () => {
    const cache = new CatalogueCache(async () => 1, { checkEveryMs: 0, maxEntries: 0 });
    let calls = 0;
    const compute = async () => `body ${++calls}`;
    const [a, b] = await Promise.all([cache.get('k', compute), cache.get('k', compute)]);
    expect([a.body, b.body]).toEqual(['body 1', 'body 2']);
  });
});

describe('CatalogueCache.memo', () => {
  it('computes once per catalogue version, and again after the version moves', async () => {
    let version = 1;
    const cache = new CatalogueCache(async () => version, { checkEveryMs: 0, maxEntries: 10 });
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cache.memo('k', compute)).toBe(1);
    expect(await cache.memo('k', compute)).toBe(1);
    version = 2;
    expect(await cache.memo('k', compute)).toBe(2);
  });

  it('forgets a failed computation, so the next call tries again', async () => {
    const cache = new CatalogueCache(async () => 1, { checkEveryMs: 0, maxEntries: 10 });
    await expect(cache.memo('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.memo('k', async () => 'up')).toBe('up');
  });

  it("an older version's computation that fails late does not forget the newer version's", async () => {
    let version = 1;
    const cache = new CatalogueCache(async () => version, { checkEveryMs: 0, maxEntries: 10 });
    let failOld!: (error: Error) => void;
    const old = cache.memo('k', () => new Promise<string>((_resolve, reject) => (failOld = reject)));
    await new Promise((resolve) => setImmediate(resolve)); // the old computation is under way
    version = 2;
    let calls = 0;
    const compute = async () => `v2 #${++calls}`;
    expect(await cache.memo('k', compute)).toBe('v2 #1');
    failOld(new Error('the old build failed'));
    await expect(old).rejects.toThrow('the old build failed');
    expect(await cache.memo('k', compute)).toBe('v2 #1');
    expect(calls).toBe(1);
  });

  it('ready: undefined while the value is computed (begun once), the value once it is, per version', async () => {
    let version = 1;
    const cache = new CatalogueCache(async () => version, { checkEveryMs: 0, maxEntries: 10 });
    let finish!: (value: string) => void;
    let calls = 0;
    const compute = () => {
      calls += 1;
      return new Promise<string>((resolve) => (finish = resolve));
    };
    expect(await cache.ready('k', compute)).toBeUndefined();
    expect(await cache.ready('k', compute)).toBeUndefined();
    expect(calls).toBe(1);
    finish('v1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.ready('k', compute)).toBe('v1');
    expect(await cache.memo('k', compute)).toBe('v1');
    version = 2; // a new catalogue: not ready again until its own value is computed
    expect(await cache.ready('k', compute)).toBeUndefined();
    expect(calls).toBe(2);
    finish('v2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.ready('k', compute)).toBe('v2');
  });

  it('ready: a failed computation is not ready, and the next call begins another', async () => {
    const cache = new CatalogueCache(async () => 1, { checkEveryMs: 0, maxEntries: 10 });
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error('down'));
    };
    expect(await cache.ready('k', failing)).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.ready('k', failing)).toBeUndefined();
    expect(calls).toBe(2);
  });
});

describe('CardCache', () => {
  it('keeps the most recently used cards up to its characters; 0 keeps none', () => {
    const cards = new CardCache(30); // three cards of 10 characters
    for (const id of ['a', 'b', 'c']) cards.set(id, `{"id":"${id}"}`);
    expect(cards.get('a')).toBeDefined(); // a is now the most recent
    cards.set('d', '{"id":"d"}'); // b goes
    expect([cards.get('b'), cards.size]).toEqual([undefined, { cards: 3, chars: 30 }]);
    // a card of 20 characters makes room for itself: the two least recently used go (c, then a)
    cards.set('e', '{"id":"e","x":"long"}'.slice(0, 20));
    expect([cards.get('c'), cards.get('a'), cards.get('d'), cards.size]).toEqual([undefined, undefined, '{"id":"d"}', { cards: 2, chars: 30 }]);
    // replaced: counted once
    cards.set('d', '{"id":"d"}');
    expect(cards.size).toEqual({ cards: 2, chars: 30 });
    // larger than the whole budget: not kept, nothing evicted
    cards.set('f', 'x'.repeat(31));
    expect([cards.get('f'), cards.size]).toEqual([undefined, { cards: 2, chars: 30 }]);
    const none = new CardCache(0);
    none.set('a', '{"id":"a"}');
    expect([none.get('a'), none.size]).toEqual([undefined, { cards: 0, chars: 0 }]);
  });
});

describe('one teacher changed (decision 107)', () => {
  it('drop: the responses it names go, kept or being computed (not kept when done); the others stay', async () => {
    const cache = new CatalogueCache(async () => 1, { checkEveryMs: 0, maxEntries: 10 });
    let calls = 0;
    const body = (text: string) => async () => {
      calls += 1;
      return text;
    };
    await cache.get('keep', body('kept'));
    await cache.get('drop', body('old'));
    let finish!: (text: string) => void;
    const computing = cache.get('drop-later', () => new Promise<string>((resolve) => (finish = resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    cache.drop((key) => key.startsWith('drop'));
    finish('read before the change');
    expect((await computing).body).toBe('read before the change'); // its own request gets it …
    expect((await cache.get('drop-later', body('new'))).body).toBe('new'); // … but it was not kept
    expect((await cache.get('drop', body('new'))).body).toBe('new');
    calls = 0;
    expect((await cache.get('keep', body('recomputed'))).body).toBe('kept');
    expect(calls).toBe(0);
  });

  it('which API responses and pages a change reaches', async () => {
    const { responseAffected, pageAffected } = await import('./live-catalogue.js');
    const french = { languages: ['French'], levels: ['A1 Beginner'], country: 'France', price: 30 };
    const german = { languages: ['German'], levels: ['C1 Advanced'], country: null, price: 60 };
    const scope = (language: string | null, min: number, max: number, country: string | null = null) =>
      JSON.stringify(['list', cursorScope('rating', { language: language ?? undefined, country: country ?? undefined, min, max }), null, 4]);
    const moved = [{ id: 'a', before: french, after: german }];
    expect(responseAffected(scope('french', -Infinity, Infinity), moved)).toBe(true); // any case
    expect(responseAffected(scope('German', 50, 70), moved)).toBe(true);
    expect(responseAffected(scope('German', 10, 20), moved)).toBe(false);
    expect(responseAffected(scope('English', -Infinity, Infinity), moved)).toBe(false);
    expect(responseAffected(scope(null, -Infinity, Infinity, 'france'), moved)).toBe(true);
    expect(responseAffected(scope(null, -Infinity, Infinity, 'Peru'), moved)).toBe(false);
    expect(responseAffected(scope('English', -Infinity, Infinity), [{ id: 'a', before: undefined, after: german }])).toBe(true);
    expect(responseAffected(scope('French', -Infinity, Infinity), [{ id: 'a', before: null, after: null }])).toBe(false);
    expect(responseAffected('["facets","x"]', moved)).toBe(true);
    expect(responseAffected('stats', moved)).toBe(true);
    expect(responseAffected('teacher:a', moved)).toBe(true);
    expect(responseAffected('teacher:b', moved)).toBe(false);
    expect(pageAffected('/teachers/b', moved)).toBe(false);
    expect(pageAffected('/teachers/a?x=1', moved)).toBe(true);
    expect(pageAffected('/teachers?language=German', moved)).toBe(true);
    expect(pageAffected('/', moved)).toBe(true);
  });
});
