import { describe, expect, it } from 'vitest';
import { CatalogueCache } from './catalogue-cache.js';

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
});
