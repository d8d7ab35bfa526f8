/** A return path longer than this is not one of ours: a teacher's page is under 80 characters. */
export const RETURN_PATH_MAX = 512;

/**
 * Where a form sends the person back to (`next` on /login, /register and a heart's post): a
 * path on this site — one leading `/`, not `//` or `/\` (which browsers read as another
 * host), no control characters or backslashes — capped before the pattern runs. Empty or
 * absent is `/`; anything else is refused (undefined).
 */
export function returnPath(value: string | null | undefined): string | undefined {
  if (value === undefined || value === null || value === '') return '/';
  if (value.length > RETURN_PATH_MAX) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  return value;
}
