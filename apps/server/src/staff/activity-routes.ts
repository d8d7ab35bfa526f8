import { ACTIVITY_PAGE_SIZE, activityPageSchema, activityQuerySchema, apiErrorSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listActivity } from './activity.js';

/** GET /api/staff/activity: the audit log, newest first, a page at a time (admins only). */
export async function activityRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/staff/activity',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: 'The staff audit log, newest first (keyset paged by `before`)',
        security: [{ session: [] }],
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listActivity(app.db.orm, { before: request.query.before, limit: ACTIVITY_PAGE_SIZE });
    },
  );
}
