import { AVATAR_VERSION_PATTERN, avatarPath, avatarVersion, teacherIdSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendError } from '../../plugins/errors.js';
import { notModified } from '../../catalogue/index.js';
import { createTeachersRepository } from '../../catalogue/index.js';
import { PictureCache } from './picture-cache.js';
import { fetchPicture, PictureFetchError, type Picture } from './picture-source.js';

export interface AvatarRoutesOptions {
  /** bytes of pictures each server keeps in memory (least recently used go first; 0: none kept) */
  cacheBytes?: number;
  /** the largest picture fetched (bytes); a larger one is refused */
  maxBytes?: number;
  /** how long a fetch from the source may take, headers and body (ms) */
  fetchTimeoutMs?: number;
  /** how long a picture that could not be fetched is not asked for again (ms) */
  retryAfterMs?: number;
  /** sources fetched at once; past it a picture not yet held answers 503 (memory: this × maxBytes) */
  maxFetches?: number;
  /** the clock (ms since the epoch): tests move it */
  now?: () => number;
  /** tests only: sources on this machine, over plain http (otherwise https on public addresses only) */
  allowLocalSources?: boolean;
}

/** A path's answer never changes (its version follows the source address): a year, immutable. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const paramsSchema = z.object({
  id: teacherIdSchema,
  version: z.string().max(8).regex(AVATAR_VERSION_PATTERN, 'Invalid avatar version'),
});

/**
 * Teachers' pictures from this origin (decision 093): `GET /avatars/:id/:version` looks the
 * teacher's picture address up in the catalogue (the address never comes from the request),
 * fetches it once — raster images only, size-capped, with a timeout, concurrent requests for
 * it sharing the fetch — and keeps it in a bounded in-memory cache; the answer is immutable
 * for a year, so browsers and a CDN keep it. A page costs no connection to another host
 * before its first picture, and the visitor's address reaches no one else.
 */
export async function avatarRoutes(app: FastifyInstance, options: AvatarRoutesOptions = {}): Promise<void> {
  const cacheBytes = options.cacheBytes ?? 32 * 1024 * 1024;
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 5000;
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  const maxFetches = options.maxFetches ?? 16;
  const now = options.now ?? Date.now;

  const teachers = createTeachersRepository(app.db);
  const cache = new PictureCache(cacheBytes);
  const failedUntil = new Map<string, number>();
  const inFlight = new Map<string, Promise<Picture>>();

  let cachedVersion: number | undefined;
  /**
   * A catalogue change (a teacher or a picture removed) empties the cache, as it does the
   * HTML cache; a fetch begun before it is not joined after it, nor kept (see below).
   */
  async function followCatalogue(): Promise<void> {
    const version = await app.catalogueCache.currentVersion();
    if (version === cachedVersion) return;
    cachedVersion = version;
    cache.clear();
    failedUntil.clear();
    inFlight.clear();
  }

  app.withTypeProvider<ZodTypeProvider>().get(
    '/avatars/:id/:version',
    {
      schema: {
        tags: ['teachers'],
        summary: "A teacher's picture, from this origin (immutable: the version follows the picture's source)",
        params: paramsSchema,
      },
    },
    async (request, reply) => {
      const { id, version } = request.params;
      const key = `${id}/${version}`;
      const send = (picture: Picture) => {
        reply.header('cache-control', IMMUTABLE).header('etag', picture.etag);
        if (notModified(request, picture.etag)) return reply.code(304).send();
        return reply.type(picture.type).send(picture.body);
      };
      const cannotFetch = () => {
        reply.header('cache-control', 'no-store');
        return sendError(reply, 502, 'BAD_GATEWAY', 'The picture could not be fetched');
      };
      await followCatalogue();
      const cached = cache.get(key);
      if (cached) return send(cached);

      const source = await teachers.avatarUrl(id);
      // fetched by another request while this one read the catalogue
      const fetched = cache.get(key);
      if (fetched) return send(fetched);
      const current = avatarPath(id, source, { allowHttp: options.allowLocalSources === true });
      if (!source || !current) return sendError(reply, 404, 'NOT_FOUND', 'This teacher has no picture');
      // a page rendered before the picture changed: the current one, briefly cacheable
      if (avatarVersion(source) !== version) return reply.header('cache-control', 'public, max-age=60').redirect(current, 302);

      const retryAt = failedUntil.get(key);
      if (retryAt !== undefined) {
        if (retryAt > now()) return cannotFetch();
        failedUntil.delete(key);
      }
      let loading = inFlight.get(key);
      if (!loading && inFlight.size >= maxFetches) {
        // many pictures asked for at once (a crawl, or someone walking every teacher): the
        // sources are not all fetched together, each body held in memory; the browser shows
        // the initials and a later visit the picture
        reply.header('cache-control', 'no-store').header('retry-after', '1');
        return sendError(reply, 503, 'SERVICE_UNAVAILABLE', 'Too many pictures are being fetched; try again in a moment');
      }
      if (!loading) {
        const started = fetchPicture(source, { maxBytes, timeoutMs: fetchTimeoutMs, allowLocalSources: options.allowLocalSources });
        const versionBefore = cachedVersion;
        loading = started;
        inFlight.set(key, started);
        // kept only while the catalogue is the one the picture was looked up in
        const stillCurrent = () => cachedVersion === versionBefore;
        void started
          .then(
            (picture) => stillCurrent() && cache.set(key, picture),
            () => stillCurrent() && failedUntil.set(key, now() + retryAfterMs),
          )
          .finally(() => {
            if (inFlight.get(key) === started) inFlight.delete(key);
          });
      }
      try {
        return send(await loading);
      } catch (error) {
        if (!(error instanceof PictureFetchError)) throw error;
        // the teacher's id is public; the source's address is the catalogue's, not a person's
        request.log.warn({ avatar: key, reason: error.message }, 'a teacher picture could not be fetched');
        return cannotFetch();
      }
    },
  );
}
