/**
 * The wait a 429 answer names, in seconds: `Retry-After` (seconds or an HTTP date), else
 * better-auth's `X-Retry-After`. Undefined when neither says. Part of the first load (the
 * session check at start honours it), so plain code.
 */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = (headers?.get('retry-after') ?? headers?.get('x-retry-after'))?.trim();
  if (!value || value.length > 64) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
