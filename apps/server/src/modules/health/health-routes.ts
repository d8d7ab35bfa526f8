import { healthSchema } from '@learnlingo/contract';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const versionSchema = z.object({ name: z.literal('learnlingo'), api: z.literal(1) });

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  /** whether the catalogue module's search index is built (false when it cannot tell) */
  const searchIndexReady = async () => {
    try {
      return await app.searchIndexReady();
    } catch {
      return false;
    }
  };

  // Constant JSON through the same stack (hooks, headers, compression, serializer) as the
  // catalogue: the ceiling that bench/api.mjs measures the catalogue against.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/version',
    {
      schema: {
        tags: ['health'],
        summary: 'The API name and version (constant)',
        response: { 200: versionSchema },
      },
    },
    async () => ({ name: 'learnlingo' as const, api: 1 as const }),
  );

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database readiness (503 when the database does not answer)',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const ok = await app.db.ping();
      const searchIndex = ok && (await searchIndexReady()) ? 'ready' : 'pending';
      return reply.code(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: ok ? 'ok' : 'unavailable',
        engine: app.db.engine,
        searchIndex,
      });
    },
  );
}
