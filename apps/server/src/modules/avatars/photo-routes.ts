import { apiErrorSchema, PHOTO_MAX_BYTES, photoUploadedSchema, type PhotoUploaded } from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { teacherPhoto } from '../../db/schema.js';
import { HttpError, sendError } from '../../plugins/errors.js';
import { PictureCache } from './picture-cache.js';
import { processPhoto, PhotoRejected, type PhotoVariant } from './photo-processing.js';

/** A path's answer never changes (its name is its content's hash): a year, immutable. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NAME = /^[0-9a-f]{32}-[0-9]{2,4}\.webp$/;

/** Keeps each size of a processed photo (a photo uploaded twice is kept once). */
export async function storePhoto(tx: Db, variants: readonly PhotoVariant[]): Promise<void> {
  for (const v of variants) {
    await tx
      .insert(teacherPhoto)
      .values({ name: v.name, contentType: 'image/webp', body: v.body, width: v.width, height: v.height })
      .onConflictDoNothing();
  }
}

/** The addresses a stored photo is served at: the card's size and the larger one. */
export const photoAddresses = (variants: readonly PhotoVariant[]): PhotoUploaded => ({
  avatar_url: `/photos/${variants[0]!.name}`,
  large_url: `/photos/${variants.at(-1)!.name}`,
});

export interface PhotoUploadRoute {
  url: string;
  preHandler: preHandlerHookHandler;
  tag: string;
  summary: string;
  /** keeps the checked picture (storePhoto, with its activity row, in one transaction) */
  store: (request: FastifyRequest, variants: PhotoVariant[]) => Promise<void>;
}

/**
 * A photo upload route (decision 110): the body is the picture itself (any content type: its
 * first bytes decide), at most PHOTO_MAX_BYTES, counted as it arrives (Fastify stops reading
 * past it: 413); checked and re-encoded (400 naming `photo`), then `store`d; answers 201 with
 * its addresses. The console's (any teacher's photo) and a teacher's own use it.
 */
export async function photoUploadRoute(app: FastifyInstance, route: PhotoUploadRoute): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PHOTO_MAX_BYTES }, (_request, body, done) => done(null, body));
    scope.withTypeProvider<ZodTypeProvider>().post(
      route.url,
      {
        preHandler: route.preHandler,
        bodyLimit: PHOTO_MAX_BYTES,
        schema: { tags: [route.tag], summary: route.summary, response: { 201: photoUploadedSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 413: apiErrorSchema } },
      },
      async (request, reply) => {
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) {
          throw new HttpError(400, 'VALIDATION_ERROR', 'Send the picture as the request body', { photo: 'Choose a JPEG, PNG or WebP picture' });
        }
        let variants;
        try {
          variants = await processPhoto(body);
        } catch (error) {
          if (error instanceof PhotoRejected) throw new HttpError(400, 'VALIDATION_ERROR', error.message, { photo: error.message });
          throw error;
        }
        await route.store(request, variants);
        return reply.code(201).send(photoAddresses(variants));
      },
    );
  });
}

/**
 * `GET /photos/:name`: the photos uploaded in the console (decision 110), from the database —
 * every server on it serves every photo, and a restart loses none — kept in a bounded
 * in-memory cache, immutable for a year.
 */
export async function photoRoutes(app: FastifyInstance, { cacheBytes = 16 * 1024 * 1024 } = {}): Promise<void> {
  const cache = new PictureCache(cacheBytes);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/photos/:name',
    {
      schema: {
        tags: ['teachers'],
        summary: 'A photo uploaded in the console (immutable: its name is its content hash)',
        params: z.object({ name: z.string().max(48).regex(NAME, 'Invalid photo name') }),
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      let picture = cache.get(name);
      if (!picture) {
        const [row] = await app.db.orm
          .select({ body: teacherPhoto.body, type: teacherPhoto.contentType })
          .from(teacherPhoto)
          .where(eq(teacherPhoto.name, sql`${name}`));
        if (!row) return sendError(reply, 404, 'NOT_FOUND', 'No such photo');
        picture = { body: row.body, type: row.type, etag: `"${name.slice(0, 32)}"` };
        cache.set(name, picture);
      }
      reply.header('cache-control', IMMUTABLE).header('etag', picture.etag);
      if (request.headers['if-none-match'] === picture.etag) return reply.code(304).send();
      return reply.type(picture.type).send(picture.body);
    },
  );
}
