import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { etagOf } from '../../catalogue/index.js';

export interface Picture {
  body: Buffer;
  type: string;
  etag: string;
}

export interface PictureSourceOptions {
  /** the largest picture fetched (bytes) */
  maxBytes: number;
  /** how long a fetch may take, redirects, headers and body together (ms) */
  timeoutMs: number;
  /**
   * Tests only: sources on this machine and over plain http (a local server). Otherwise only
   * https sources on public addresses are fetched.
   */
  allowLocalSources?: boolean;
}

/** A source that cannot give a picture: the route answers 502 and waits before asking again. */
export class PictureFetchError extends Error {}

/** Redirects followed from the catalogue's address; each hop is checked like the first. */
const MAX_REDIRECTS = 3;

/**
 * Pictures a browser shows in an <img> on every platform, each with how its file starts. No SVG
 * (a document that can hold script); a body that does not start as its type says is refused.
 */
const SIGNATURES: Record<string, (head: Buffer) => boolean> = {
  'image/jpeg': (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff,
  'image/png': (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/gif': (head) => head.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (head) => head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP',
  'image/avif': (head) => head.subarray(4, 8).toString('latin1') === 'ftyp' && /^avi[fs]$/.test(head.subarray(8, 12).toString('latin1')),
};
const ACCEPT = Object.keys(SIGNATURES).join(',');

/**
 * IPv4 addresses a picture is never fetched from: this machine, private and shared networks,
 * link-local (where clouds answer with their instances' credentials), multicast, reserved.
 */
const IPV4_NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) IPV4_NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');

/**
 * Where a public IPv6 host can be: the global unicast space, `2000::/3`. Everything outside it
 * is refused whatever it is (besides the IPv4 ones reached through IPv6, below): `::/8` (`::`,
 * `::1`, the old IPv4-compatible `::a.b.c.d`, SIIT's `::ffff:0:a.b.c.d` and the rest of it,
 * unassigned), `64:ff9b::/32` past the NAT64 prefix (local-use `64:ff9b:1::/48` among it),
 * `100::/64`, unique-local, link-local, site-local, multicast and whatever the IETF reserves or
 * assigns later — a block list of those alone missed `::1:7f00:1` and the like.
 */
const IPV6_GLOBAL = new BlockList();
IPV6_GLOBAL.addSubnet('2000::', 3, 'ipv6');

/**
 * Inside `2000::/3`, the networks never fetched from: `2001::/23` (IETF protocol assignments,
 * Teredo's `2001::/32` among them), `2001:db8::/32` and `3fff::/20` (documentation) and
 * `2002::/16` (6to4). Teredo and 6to4 hold an IPv4 address in their bits: through a relay each
 * can lead to a private IPv4 host, and no picture host of ours lives there.
 * (Own lists: Node's BlockList matches its IPv6 rules against IPv4 addresses too, as if mapped —
 * `::ffff:0:0/96` in one list with the IPv4 rules refused every IPv4 address.)
 */
const IPV6_NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['2001::', 23], ['2001:db8::', 32], ['2002::', 16], ['3fff::', 20],
] as const) IPV6_NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/**
 * IPv6 networks whose last 32 bits are the IPv4 host reached: IPv4-mapped (`::ffff:a.b.c.d`)
 * and the well-known NAT64 prefix (`64:ff9b::a.b.c.d`, what DNS64 answers on an IPv6-only
 * network). That IPv4 address decides.
 */
const IPV4_INSIDE = new BlockList();
IPV4_INSIDE.addSubnet('::ffff:0:0', 96, 'ipv6');
IPV4_INSIDE.addSubnet('64:ff9b::', 96, 'ipv6');

/** The eight 16-bit words of an IPv6 address (one net.isIP calls 6), a dotted IPv4 tail included. */
function ipv6Words(address: string): number[] {
  let text = address.split('%', 1)[0] ?? '';
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** Whether a picture may be fetched from this address (an IP address, not a name). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !IPV4_NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  if (IPV4_INSIDE.check(address, 'ipv6')) {
    const [, , , , , , high = 0, low = 0] = ipv6Words(address);
    return isPublicAddress([high >> 8, high & 255, low >> 8, low & 255].join('.'));
  }
  return IPV6_GLOBAL.check(address, 'ipv6') && !IPV6_NOT_PUBLIC.check(address, 'ipv6');
}

/** DNS as usual, but a name that leads to an address that is not public fails the connection. */
const publicLookup = ((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, options, (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
    if (error) return callback(error, address, family);
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
    if (!addresses.every(isPublicAddress)) return callback(new PictureFetchError('the source is not on a public address'), address, family);
    return callback(null, address, family);
  });
}) as unknown as LookupFunction;

/** One GET, its response once its headers arrive. */
function get(url: URL, signal: AbortSignal, allowLocal: boolean): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, {
      signal,
      headers: { accept: ACCEPT, 'user-agent': 'LearnLingo avatar fetcher' },
      ...(allowLocal ? {} : { lookup: publicLookup }),
    });
    request.once('response', resolve);
    request.once('error', reject);
  });
}

/** The response's body, refused past `maxBytes`. */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of response) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) {
      response.destroy();
      throw new PictureFetchError(`larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, length);
}

/**
 * Fetches a teacher's picture from the address the catalogue gives: https only, public
 * addresses only (checked on every connection, after DNS, so a name cannot be made to point
 * inside later), at most MAX_REDIRECTS redirects each checked the same way, within the
 * timeout and the size cap, and a raster picture whose bytes match its type.
 */
export async function fetchPicture(source: string, options: PictureSourceOptions): Promise<Picture> {
  const allowLocal = options.allowLocalSources === true;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = new URL(source);
  try {
    for (let hop = 0; ; hop += 1) {
      if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) {
        throw new PictureFetchError(`not an https source (${url.protocol.slice(0, 10)})`);
      }
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      if (!allowLocal && isIP(host) !== 0 && !isPublicAddress(host)) throw new PictureFetchError('the source is not on a public address');
      const response = await get(url, signal, allowLocal);
      const { statusCode = 0, headers } = response;
      if (statusCode >= 300 && statusCode < 400 && headers.location) {
        response.resume();
        if (hop >= MAX_REDIRECTS) throw new PictureFetchError('too many redirects');
        url = new URL(headers.location.slice(0, 2000), url);
        continue;
      }
      const type = (headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
      const matches = SIGNATURES[type];
      if (statusCode !== 200 || !matches || Number(headers['content-length'] ?? 0) > options.maxBytes) {
        response.destroy();
        throw new PictureFetchError(statusCode === 200 ? `not a picture this app serves (${type.slice(0, 40) || 'no type'})` : `status ${statusCode}`);
      }
      const body = await readBody(response, options.maxBytes);
      if (!matches(body)) throw new PictureFetchError(`the body is not ${type}`);
      return { body, type, etag: etagOf(body) };
    }
  } catch (error) {
    if (error instanceof PictureFetchError) throw error;
    // (a lookup that refused the address fails the request with its own PictureFetchError, above)
    if (signal.aborted) throw new PictureFetchError('timed out');
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new PictureFetchError(`unreachable (${(cause as NodeJS.ErrnoException).code ?? cause.name})`);
  }
}
