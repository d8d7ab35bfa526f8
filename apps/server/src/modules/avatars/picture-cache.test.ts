import { describe, expect, it } from 'vitest';
import { PictureCache } from './picture-cache.js';

const picture = (bytes: number, tag = 'a') => ({ body: Buffer.alloc(bytes, tag), type: 'image/png', etag: `"${tag}${bytes}"` });

describe('PictureCache', () => {
  it('keeps pictures up to its byte budget, the least recently used going first', () => {
    const cache = new PictureCache(30);
    cache.set('a', picture(10, 'a'));
    cache.set('b', picture(10, 'b'));
    cache.set('c', picture(10, 'c'));
    expect(cache.get('a')?.etag).toBe('"a10"'); // a is now the most recently used
    cache.set('d', picture(10, 'd'));
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key)?.etag)).toEqual(['"a10"', '"c10"', '"d10"']);
    expect(cache.bytes).toBe(30);
  });

  it('a picture stored again under its key replaces the first and is counted once', () => {
    const cache = new PictureCache(30);
    for (let i = 0; i < 5; i += 1) cache.set('a', picture(10, 'a'));
    expect(cache.bytes).toBe(10);
    cache.set('b', picture(10, 'b'));
    cache.set('c', picture(10, 'c'));
    // all three still fit: the repeated stores did not eat the budget
    expect(['a', 'b', 'c'].map((key) => cache.get(key) !== undefined)).toEqual([true, true, true]);
  });

  it('does not keep a picture larger than the whole budget, and clear() empties it', () => {
    const cache = new PictureCache(30);
    cache.set('a', picture(10));
    cache.set('huge', picture(31));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});
