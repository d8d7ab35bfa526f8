import { createHmac, timingSafeEqual } from 'node:crypto';

/** A position in the catalogue order (rating desc, id desc). */
export interface CursorPosition {
  rating: number;
  id: string;
}

/**
 * Opaque keyset cursors: base64url(JSON [rating, id]) + "." + a truncated HMAC, so a
 * client cannot forge a position (→ 400 BAD_CURSOR). A cursor whose row has since gone
 * still works: the next page is found by row comparison, not by looking the row up.
 */
export function createCursorCodec(secret: string) {
  const key = createHmac('sha256', secret).update('learnlingo:teachers-cursor').digest();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest().subarray(0, 12);

  return {
    encode(position: CursorPosition): string {
      const payload = Buffer.from(JSON.stringify([position.rating, position.id])).toString('base64url');
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    /** null when the cursor is malformed or its signature does not match */
    decode(cursor: string): CursorPosition | null {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(payload);
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
          return { rating: value[0], id: value[1] };
        }
      } catch {
        // fall through
      }
      return null;
    },
  };
}

export type CursorCodec = ReturnType<typeof createCursorCodec>;
