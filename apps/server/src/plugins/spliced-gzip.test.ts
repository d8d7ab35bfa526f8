import zlib from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { splicedGzip } from './spliced-gzip.js';

/** A page-like text: varied enough that deflate's matches and blocks matter. */
const text = (seed: string, length: number) =>
  Array.from({ length: Math.ceil(length / 10) }, (_, i) => `<li class="${seed}-${i % 7}">${seed} ${i * 31}</li>`).join('').slice(0, length);

describe('splicedGzip', () => {
  const styles = Buffer.from(`<style>${text('card', 30_000)}</style>`);
  it('gives back the body byte for byte wherever its constant part lies, with gzip’s checks (CRC-32, length)', () => {
    for (const [before, after] of [
      [text('head', 1500), text('body', 12_000)],
      ['', text('body', 500)],
      [text('head', 800), ''],
      ['', ''],
      [`é ✓ ${text('ünïcode', 70_000)}`, `😀 ${text('tail', 40_000)}`],
    ] as const) {
      const head = Buffer.from(before);
      const body = Buffer.concat([head, styles, Buffer.from(after)]);
      const zipped = splicedGzip(body, { at: head.length, part: styles });
      // gunzip checks the trailer's CRC-32 and length: a wrong one throws
      expect(zlib.gunzipSync(zipped).equals(body)).toBe(true);
      expect(zipped.length).toBeLessThan(body.length / 3);
    }
  });

  it('refuses a constant part that is not where it is said to be (a wrong splice would be a corrupt page)', () => {
    const body = Buffer.concat([Buffer.from('<head>'), styles, Buffer.from('</html>')]);
    expect(() => splicedGzip(body, { at: 5, part: styles })).toThrow(/constant part/);
    expect(() => splicedGzip(body, { at: body.length - 10, part: styles })).toThrow(/constant part/);
  });

  it('deflates the constant part once, and costs few bytes against gzip of the whole', () => {
    const part = Buffer.from(`<style>${text('once', 20_000)}</style>`);
    const deflate = vi.spyOn(zlib, 'deflateRawSync');
    try {
      const pages = ['a', 'b', 'c'].map((name) => Buffer.concat([Buffer.from(text(`${name}-head`, 900)), part, Buffer.from(text(`${name}-body`, 9000))]));
      for (const body of pages) expect(zlib.gunzipSync(splicedGzip(body, { at: 900, part })).equals(body)).toBe(true);
      // per page: the part before and the part after; the constant part once for the three
      expect(deflate.mock.calls.filter(([input]) => input === part)).toHaveLength(1);
      expect(deflate).toHaveBeenCalledTimes(1 + 2 * pages.length);
      const page = pages[0]!;
      expect(splicedGzip(page, { at: 900, part }).length).toBeLessThan(zlib.gzipSync(page, { level: 3 }).length * 1.1);
    } finally {
      deflate.mockRestore();
    }
  });
});
