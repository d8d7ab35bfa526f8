import { createHmac, timingSafeEqual } from 'node:crypto';

/** A position in a catalogue order: the order's value (rating, price…) and the id. */
export interface CursorPosition {
  value: number;
  id: string;
}

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
      const payload = Buffer.from(JSON.stringify([position.value, position.id])).toString('base64url');
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
          value.length === 2 &&
          typeof value[0] === 'number' &&
          Number.isFinite(value[0]) &&
          typeof value[1] === 'string'
        ) {
          return { value: value[0], id: value[1] };
        }
      } catch {
        // fall through
      }
      return null;
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;

/** The query a cursor belongs to: its order and its normalised filters, as one string. */
export function cursorScope(
  sort: string,
  filters: { q?: string | undefined; language?: string | undefined; level?: string | undefined; min: number; max: number },
): string {
  return JSON.stringify([sort, filters.q ?? null, filters.language ?? null, filters.level ?? null, filters.min, filters.max]);
}
