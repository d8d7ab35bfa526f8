import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { teacherPhoto } from '../../db/schema.js';
import { sendError } from '../../plugins/errors.js';
import { PictureCache } from './picture-cache.js';
import type { PhotoVariant } from './photo-processing.js';

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
