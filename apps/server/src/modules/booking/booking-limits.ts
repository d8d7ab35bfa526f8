import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { lt, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { bookingLimit } from '../../db/schema.js';

/*
 * Bookings per client address and per e-mail address per hour (decision 102). One row per
 * key in booking_limit, bumped by one statement in the booking's own transaction: a booking
 * that fails (409, 400) rolls its count back, concurrent bookings of one key queue on the
 * row, and every server on the same PostgreSQL counts together.
 */

export const LIMIT_WINDOW_MS = 3_600_000;

export interface BookingLimits {
  perAddressPerHour: number;
  perEmailPerHour: number;
  /** keys are HMAC-SHA-256 under this secret: a copy of the table names no address */
  keySecret: string;
}

/** An IPv4 address written inside an IPv6 one (`::ffff:1.2.3.4`) as the two groups it stands for. */
const ipv4Groups = (dotted: string): string[] => {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
};

/**
 * The address a limit counts: IPv4 as is; IPv6 by its /64, the block one subscriber
 * usually holds whole (counting single IPv6 addresses would give each client 2^64 tries).
 * An IPv4-mapped IPv6 address (however it is written) counts as its IPv4 address.
 */
export function addressForLimit(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const bare = ip.split('%')[0]!; // a zone (fe80::1%eth0) is no part of the address
  const [head = '', tail = ''] = bare.split('::');
  const groupsOf = (part: string) => (part ? part.split(':').flatMap((g) => (g.includes('.') ? ipv4Groups(g) : [g])) : []);
  const left = groupsOf(head);
  const right = groupsOf(tail);
  const groups = bare.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  const n = groups.map((g) => parseInt(g, 16) || 0);
  if (n.slice(0, 5).every((g) => g === 0) && n[5] === 0xffff) {
    const [hi = 0, lo = 0] = n.slice(6);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${n
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The mailbox an address reaches, as far as it can be told from the outside: lower case, a
 * `+tag` dropped (most providers deliver a+x@ to a@), and for Gmail the dots of the local
 * part dropped and googlemail.com folded into gmail.com.
 */
export function mailboxForLimit(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at < 0) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

export const limitKey = (secret: string, kind: 'address' | 'email', value: string) =>
  createHmac('sha256', secret).update(`booking-limit:${kind}:${value}`).digest('base64url');

/**
 * Counts one booking for `key` at `at`; returns the seconds to wait when that makes more
 * than `max` in the key's hour (the caller then rolls the transaction back), else null.
 * A fixed window: the first booking of a key opens an hour, and after it the count restarts.
 */
export async function countBooking(tx: Db, key: string, max: number, at: Date): Promise<number | null> {
  const windowEnds = new Date(at.getTime() - LIMIT_WINDOW_MS).toISOString();
  const now = at.toISOString();
  const [row] = await tx
    .insert(bookingLimit)
    .values({ key, windowStart: at, count: 1 })
    .onConflictDoUpdate({
      target: bookingLimit.key,
      set: {
        count: sql`case when ${bookingLimit.windowStart} <= ${windowEnds}::timestamptz then 1 else ${bookingLimit.count} + 1 end`,
        windowStart: sql`case when ${bookingLimit.windowStart} <= ${windowEnds}::timestamptz then ${now}::timestamptz else ${bookingLimit.windowStart} end`,
      },
    })
    .returning({ count: bookingLimit.count, windowStart: bookingLimit.windowStart });
  if (!row || row.count <= max) return null;
  return Math.max(1, Math.ceil((row.windowStart.getTime() + LIMIT_WINDOW_MS - at.getTime()) / 1000));
}

/** Deletes the counts whose hour is over. Returns how many. */
export async function pruneBookingLimits(db: Database, at: number): Promise<number> {
  const deleted = await db.orm
    .delete(bookingLimit)
    .where(lt(bookingLimit.windowStart, new Date(at - LIMIT_WINDOW_MS)))
    .returning({ key: bookingLimit.key });
  return deleted.length;
}
