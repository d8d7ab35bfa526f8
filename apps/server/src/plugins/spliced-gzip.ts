import zlib from 'node:zlib';

/**
 * A gzip member (RFC 1952) made of deflate pieces compressed apart (RFC 1951): a page's
 * part that is the same in every page — its inline stylesheet, ~31 kB of a ~45 kB teacher
 * page — is deflated once, at the best level, and kept; only the parts around it are
 * deflated per response, at a fast level. Each piece but the last ends with a sync flush
 * (an empty stored block: the bit stream is byte-aligned, no block is final), so the
 * pieces follow each other as one deflate stream. A piece's matches reach only within
 * itself (each has its own compressor), which costs a few bytes where a later part repeats
 * an earlier one. The decoder sees one ordinary gzip member (decision 130).
 */

/** gzip's header: deflate, no flags or name, no modification time, "Unix" as Node's zlib writes it. */
const HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]);

/** The deflated form of each constant part, made once (the part is the same Buffer for every page). */
const deflated = new WeakMap<Buffer, Buffer>();

function deflatedOnce(part: Buffer): Buffer {
  let piece = deflated.get(part);
  if (!piece) {
    piece = zlib.deflateRawSync(part, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    deflated.set(part, piece);
  }
  return piece;
}

/** Where a constant part lies in a body: `body.subarray(at, at + part.length)` holds the same bytes as `part`. */
export interface ConstantPart {
  at: number;
  part: Buffer;
}

/**
 * `body` gzipped, its constant part's deflated form spliced in: what `gunzip` gives back is
 * `body`, byte for byte. `level`: the per-response parts' deflate level.
 */
export function splicedGzip(body: Buffer, constant: ConstantPart, level = 3): Buffer {
  const end = constant.at + constant.part.length;
  // (a memcmp of the part: ~2 µs for 31 kB, against a page whose bytes would be wrong)
  if (end > body.length || !body.subarray(constant.at, end).equals(constant.part)) throw new Error('the constant part is not where the body has it');
  const before = body.subarray(0, constant.at);
  const after = body.subarray(end);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(body) >>> 0, 0);
  // ISIZE: the length modulo 2^32
  trailer.writeUInt32LE(body.length % 2 ** 32, 4);
  return Buffer.concat([
    HEADER,
    ...(before.length > 0 ? [zlib.deflateRawSync(before, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH })] : []),
    deflatedOnce(constant.part),
    // the last piece ends the stream (its final block), even when it is empty
    zlib.deflateRawSync(after, { level }),
    trailer,
  ]);
}
