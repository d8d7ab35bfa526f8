import {
  apiErrorSchema,
  facetsSchema,
  statsSchema,
  teacherParamsSchema,
  teacherSchema,
  teachersPageSchema,
  teachersQuerySchema,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { HttpError } from '../../plugins/errors.js';
import { CatalogueCache, type CachedResponse } from './catalogue-cache.js';
import { createCursorCodec } from './cursor.js';
import { createTeachersRepository } from './teachers-repository.js';

export interface TeachersRoutesOptions {
  cursorSecret: string;
  /** how often the cache looks at the catalogue version (ms) */
  cacheCheckMs?: number;
  /** how many responses the cache keeps (0: no cache) */
  cacheEntries?: number;
}

/** Browsers and CDNs may reuse catalogue responses briefly; ETags make revalidation cheap. */
const LIST_MAX_AGE = 10;
const SLOW_MAX_AGE = 60;
const EMPTY_PAGE = '{"items":[],"nextCursor":null}';

function sendCached(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse, maxAge: number) {
  reply.header('etag', entry.etag).header('cache-control', `public, max-age=${maxAge}`);
  const match = request.headers['if-none-match'];
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === entry.etag)) {
    return reply.code(304).send();
  }
  return reply.type('application/json; charset=utf-8').send(entry.body);
}

/** Serialises through the response schema (so nothing unlisted leaks), once per cache fill. */
const serialise = <S extends z.ZodType>(schema: S, value: z.input<S>) => JSON.stringify(schema.parse(value));

export async function teachersRoutes(app: FastifyInstance, options: TeachersRoutesOptions): Promise<void> {
  const repository = createTeachersRepository(app.db);
  const cursors = createCursorCodec(options.cursorSecret);
  const cache = new CatalogueCache(() => repository.version(), {
    checkEveryMs: options.cacheCheckMs ?? 1000,
    maxEntries: options.cacheEntries ?? 2000,
  });
  app.decorate('catalogueCache', cache);
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Languages, levels and prices present in the catalogue: one read per catalogue version. */
  const facets = () => cache.memo('facets', () => repository.facets());

  /**
   * The same, as the filter values a page can match. A page for a language or level no
   * teacher has, or a price below the cheapest, is empty without asking the database: the
   * index cannot stop such a scan early, so on 100,000 teachers it would read the whole list
   * index (~30 ms) — and hold up the pages batched with it.
   */
  const filterDomain = () =>
    cache.memo('filter-domain', async () => {
      const present = await facets();
      return {
        languages: new Set(present.languages),
        levels: new Set<string>(present.levels),
        cheapest: present.prices[0] ?? Number.POSITIVE_INFINITY,
      };
    });

  r.get(
    '/api/teachers',
    {
      schema: {
        tags: ['teachers'],
        summary: 'A page of the catalogue (rating desc, id desc), filtered',
        querystring: teachersQuerySchema,
        response: { 200: teachersPageSchema, 400: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { language, level, price, cursor, limit } = request.query;
      const after = cursor === undefined ? null : cursors.decode(cursor);
      if (cursor !== undefined && after === null) {
        throw new HttpError(400, 'BAD_CURSOR', 'The cursor is not one this server issued', {
          cursor: 'Invalid cursor',
        });
      }
      const key = JSON.stringify(['list', language ?? null, level ?? null, price ?? null, cursor ?? null, limit]);
      const entry = await cache.get(key, async () => {
        // The database builds the items' JSON (teacherSchema's shape, asserted by the tests
        // against the contract); Node only adds the cursor. See decision 011.
        const domain = await filterDomain();
        if (
          (language !== undefined && !domain.languages.has(language)) ||
          (level !== undefined && !domain.levels.has(level)) ||
          (price !== undefined && price < domain.cheapest)
        ) {
          return EMPTY_PAGE;
        }
        const page = await repository.list({ language, level, price }, after, limit);
        const nextCursor = page.next ? JSON.stringify(cursors.encode(page.next)) : 'null';
        return `{"items":${page.itemsJson},"nextCursor":${nextCursor}}`;
      });
      return sendCached(request, reply, entry, LIST_MAX_AGE);
    },
  );

  r.get(
    '/api/teachers/facets',
    {
      schema: {
        tags: ['teachers'],
        summary: 'Languages, levels and price steps present in the catalogue',
        response: { 200: facetsSchema },
      },
    },
    async (request, reply) => {
      const entry = await cache.get('facets', async () => serialise(facetsSchema, await facets()));
      return sendCached(request, reply, entry, SLOW_MAX_AGE);
    },
  );

  r.get(
    '/api/teachers/:id',
    {
      schema: {
        tags: ['teachers'],
        summary: 'One teacher with reviews',
        params: teacherParamsSchema,
        response: { 200: teacherSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const entry = await cache.get(`teacher:${id}`, async () => {
        const teacher = await repository.getById(id);
        if (!teacher) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${id}`);
        return serialise(teacherSchema, teacher);
      });
      return sendCached(request, reply, entry, LIST_MAX_AGE);
    },
  );

  r.get(
    '/api/stats',
    {
      schema: {
        tags: ['teachers'],
        summary: 'Figures for the home page, computed from the catalogue',
        response: { 200: statsSchema },
      },
    },
    async (request, reply) => {
      const entry = await cache.get('stats', async () => serialise(statsSchema, await repository.stats()));
      return sendCached(request, reply, entry, SLOW_MAX_AGE);
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogueCache: CatalogueCache;
  }
}
