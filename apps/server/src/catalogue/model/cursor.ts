import { createHmac, timingSafeEqual } from 'node:crypto';
import { TAG_FILTERS, type CountFilters } from './registry.js';

/** A position in a catalogue order: the order's value (rating, price…) and the id. */
export interface CursorPosition {
  value: number;
  id: string;
  /** A search's counts, made for its first page (see SearchCounted). Absent on list cursors. */
  counted?: SearchCounted | undefined;
}

/**
 * What a search's first page counted, and the catalogue version it counted at: the
 * following pages of the same search (the HMAC binds the cursor to it) need not count
 * again while the catalogue is unchanged (decision 042).
 */
export interface SearchCounted {
  /** the search's total */
  total: number;
  /** how many of those a walk of the order's index looks for (relevance: the ones scored 0) */
  walkable: number;
  version: number;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/**
 * Opaque keyset cursors: base64url(JSON [value, id]) + "." + a truncated HMAC over the
 * payload and the query it was made for (its order and filters, `scope`), so a client
 * cannot forge a position, nor carry a cursor to another order or filter set, where its
 * position means something else (→ 400 BAD_CURSOR). A cursor whose row has since gone
 * still works: the next page is found by row comparison, not by looking the row up.
 */
export function createCursorCodec(secret: string) {
  const key = createHmac('sha256', secret).update('learnlingo:teachers-cursor').digest();
  const sign = (payload: string, scope: string) =>
    createHmac('sha256', key).update(scope).update('\u0000').update(payload).digest().subarray(0, 12);

  return {
    /** scope: the query the cursor belongs to (order and filters), as one string */
    encode(position: CursorPosition, scope = ''): string {
      const fields = [position.value, position.id];
      if (position.counted) fields.push(position.counted.total, position.counted.walkable, position.counted.version);
      const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
      return `${payload}.${sign(payload, scope).toString('base64url')}`;
    },
    /** null when the cursor is malformed or was not made for this scope by this server */
    decode(cursor: string, scope = ''): CursorPosition | null {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(payload, scope);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const value: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
        if (
          Array.isArray(value) &&
          (value.length === 2 || (value.length === 5 && isCount(value[2]) && isCount(value[3]) && isCount(value[4]))) &&
          typeof value[0] === 'number' &&
          Number.isFinite(value[0]) &&
          typeof value[1] === 'string'
        ) {
          const position: CursorPosition = { value: value[0], id: value[1] };
          if (value.length === 5) {
            position.counted = { total: value[2] as number, walkable: value[3] as number, version: value[4] as number };
          }
          return position;
        }
      } catch {
        // fall through
      }
      return null;
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;

/**
 * The query a cursor belongs to: its order and its normalised filters — the search, every
 * tag filter of the registry (registry.ts) and the price range — as one string.
 */
export function cursorScope(sort: string, filters: CountFilters & { q?: string | undefined }): string {
  return JSON.stringify([sort, filters.q ?? null, ...TAG_FILTERS.map((filter) => filters[filter] ?? null), filters.min, filters.max]);
}
