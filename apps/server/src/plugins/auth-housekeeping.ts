import { STATUS_CODES } from 'node:http';
import { lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';
import { rateLimit } from '../db/schema.js';
import { loggableError } from './errors.js';

/**
 * Which paths under /api/auth better-auth answers: its endpoints' own paths (`:param`
 * segments match any one segment). Anything else is a JSON 404 before better-auth runs —
 * its rate limiter would otherwise store a bucket for every made-up path (issue 10, finding 7).
 */
export function authPathMatcher(endpoints: Record<string, unknown>): (path: string) => boolean {
  const exact = new Set<string>();
  const patterns: string[][] = [];
  for (const endpoint of Object.values(endpoints)) {
    const path = (endpoint as { path?: unknown } | null)?.path;
    if (typeof path !== 'string' || !path.startsWith('/')) continue;
    if (path.includes('/:')) patterns.push(path.split('/'));
    else exact.add(path);
  }
  return (path) => {
    if (exact.has(path)) return true;
    const parts = path.split('/');
    return patterns.some(
      (pattern) =>
        pattern.length === parts.length &&
        pattern.every((segment, i) => (segment.startsWith(':') ? (parts[i] ?? '') !== '' : segment === parts[i])),
    );
  };
}

/** better-auth answers some errors with an empty body: give them the auth routes' JSON shape. */
export function emptyAuthError(status: number): { code: string; message: string } {
  const code = (STATUS_CODES[status] ?? 'Error').toUpperCase().replace(/[^A-Z]+/g, '_');
  return { code, message: STATUS_CODES[status] ?? 'Error' };
}

/** Buckets idle this long are over in every rule (the longest window is 60 s). */
export const RATE_LIMIT_KEEP_MS = 2 * 60_000;

/** Deletes the rate-limit buckets nobody has used for RATE_LIMIT_KEEP_MS. Returns how many. */
export async function pruneRateLimits(db: Database, now = Date.now()): Promise<number> {
  const deleted = await db.orm
    .delete(rateLimit)
    .where(lt(rateLimit.lastRequest, now - RATE_LIMIT_KEEP_MS))
    .returning({ id: rateLimit.id });
  return deleted.length;
}

/** Prunes expired buckets once a minute while the app runs (any number of servers may). */
export function scheduleRateLimitPruning(app: FastifyInstance, db: Database, everyMs = 60_000): void {
  const timer = setInterval(() => {
    pruneRateLimits(db).catch((error: unknown) => app.log.warn({ err: loggableError(error) }, 'could not prune rate-limit buckets'));
  }, everyMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
