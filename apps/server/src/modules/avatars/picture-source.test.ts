import { describe, expect, it } from 'vitest';
import { fetchPicture, isPublicAddress } from './picture-source.js';

describe('isPublicAddress: where a teacher picture may be fetched from', () => {
  it('public IPv4 and IPv6 addresses are (one IPv6 rule once refused every IPv4 address)', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '151.101.1.69', '2606:4700::6810:84e5', '2a00:1450:4001:80b::200e']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('private, loopback, link-local and reserved IPv4 and IPv6 addresses are not', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ['::', '::1', 'fd00::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1', '2001:db8::1', 'not-an-address']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  // Each range holds an IPv4 address in its bits; a relay or translator can lead to it.
  it.each([
    ['::/96, IPv4-compatible', ['::7f00:1', '::127.0.0.1', '::10.0.0.1', '::8.8.8.8']],
    ['::ffff:0:0:0/96, SIIT', ['::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '::ffff:0:a9fe:a9fe', '::ffff:0:8.8.8.8']],
    ['64:ff9b:1::/48, local-use NAT64', ['64:ff9b:1::7f00:1', '64:ff9b:1::a00:1', '64:ff9b:1:ffff::808:808']],
    ['2002::/16, 6to4', ['2002:7f00:1::1', '2002:a00:1::', '2002:a9fe:a9fe::1', '2002:808:808::1']],
    ['2001::/32, Teredo', ['2001:0:4136:e378:8000:63bf:3fff:fdd2']],
  ])('%s: refused whatever IPv4 address is inside', (_range, addresses) => {
    for (const address of addresses) expect(isPublicAddress(address), address).toBe(false);
  });

  // next to the ranges above, or anywhere outside 2000::/3: a list of named ranges missed them
  it.each([
    ['::/8 past ::/96 and the mapped and SIIT ranges', ['::1:7f00:1', '::1:a00:1', '::ffff:1:7f00:1', '::ffff:1:8.8.8.8']],
    ['64:ff9b::/32 past the NAT64 /96', ['64:ff9b::1:7f00:1', '64:ff9b:0:1::a9fe:a9fe']],
    ['reserved and unassigned space', ['4000::1', '5f00::1', 'e000::1', '100::1:2']],
    ['IETF assignments and documentation inside 2000::/3', ['2001:2::1', '2001:20::1', '3fff::1']],
  ])('%s: refused (only the global unicast 2000::/3 can be public)', (_range, addresses) => {
    for (const address of addresses) expect(isPublicAddress(address), address).toBe(false);
  });

  it.each([
    ['::ffff:0:0/96, IPv4-mapped', '::ffff:'],
    ['64:ff9b::/96, well-known NAT64', '64:ff9b::'],
  ])('%s: the IPv4 address inside decides', (_range, prefix) => {
    for (const inside of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '192.168.0.1', '0.0.0.0']) {
      expect(isPublicAddress(`${prefix}${inside}`), `${prefix}${inside}`).toBe(false);
    }
    // the same in hexadecimal words: 127.0.0.1, 169.254.169.254
    expect(isPublicAddress(`${prefix}7f00:1`)).toBe(false);
    expect(isPublicAddress(`${prefix}a9fe:a9fe`)).toBe(false);
    // a public host reached through IPv6 (DNS64 answers so on an IPv6-only network)
    expect(isPublicAddress(`${prefix}8.8.8.8`)).toBe(true);
    expect(isPublicAddress(`${prefix}808:808`)).toBe(true);
  });

  it('fetchPicture refuses such a literal address before connecting', async () => {
    for (const host of ['[::7f00:1]', '[::ffff:0:7f00:1]', '[64:ff9b:1::a9fe:a9fe]', '[2002:a9fe:a9fe::1]', '[64:ff9b::a9fe:a9fe]']) {
      await expect(fetchPicture(`https://${host}/a.png`, { maxBytes: 1024, timeoutMs: 2000 }), host).rejects.toThrow(
        'not on a public address',
      );
    }
  });
});
