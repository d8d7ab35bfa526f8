/**
 * Teachers' pictures are served from this app's own origin (docs/decisions/093-avatars-from-our-origin.md):
 * `/avatars/{teacher id}/{version}`, where the version follows the picture's source address,
 * so a page names a new path when a teacher's picture changes and a path's answer never does.
 */

/**
 * A teacher's picture address, as the catalogue may give it. (Here, not in rules.ts: the
 * first page load's code imports rules.ts, and every constant there costs it bytes.)
 */
export const AVATAR_URL_MAX = 2000;

/**
 * A source address this app fetches pictures from: https only, as the avatar route does (a
 * picture over plain http is neither fetched nor named; checked on a length-capped string).
 */
const FETCHABLE = /^https:\/\//i;
/** A photo uploaded in the console: `/photos/<content hash>-<width>.webp`. */
const UPLOADED = /^\/photos\/[0-9a-f]{32}-[0-9]{2,4}\.webp$/;
/** The server's tests: pictures from a local source over plain http (`allowLocalSources`). */
const FETCHABLE_IN_TESTS = /^https?:\/\//i;

/**
 * The version of a picture's source address: FNV-1a (32 bits) of its UTF-16 code units, as 8
 * hex digits. Short and the same in the browser and on the server; it tells addresses apart
 * for caches, it proves nothing (the server looks the address up itself).
 */
export function avatarVersion(source: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < source.length; i += 1) {
    hash ^= source.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * Where a teacher's picture is served from on this origin; null when it has none the server
 * fetches (the page shows the initials). `allowHttp`: the avatar route under test, whose
 * local source speaks plain http.
 */
export function avatarPath(teacherId: string, source: string | null | undefined, { allowHttp = false } = {}): string | null {
  // a photo uploaded in the console is on this origin already, content-hashed (decision 110)
  if (source && source.length < 64 && UPLOADED.test(source)) return source;
  if (!source || source.length > AVATAR_URL_MAX || !(allowHttp ? FETCHABLE_IN_TESTS : FETCHABLE).test(source)) return null;
  return `/avatars/${encodeURIComponent(teacherId)}/${avatarVersion(source)}`;
}

/** The version part of an avatar path: 8 lowercase hex digits. */
export const AVATAR_VERSION_PATTERN = /^[0-9a-f]{8}$/;
