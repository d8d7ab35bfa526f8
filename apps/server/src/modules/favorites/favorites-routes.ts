import { apiErrorSchema, favoriteParamsSchema, favoritesSchema, favoriteStateSchema } from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../plugins/errors.js';
import { createFavoritesRepository } from './favorites-repository.js';

function userOf(request: FastifyRequest) {
  if (!request.user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
  return request.user;
}

export async function favoritesRoutes(app: FastifyInstance): Promise<void> {
  const repository = createFavoritesRepository(app.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const security = [{ session: [] }];

  r.get(
    '/api/favorites',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['favorites'],
        summary: "The signed-in user's favourite teachers, newest first",
        security,
        response: { 200: favoritesSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { items: await repository.list(userOf(request).id) };
    },
  );

  r.put(
    '/api/favorites/:teacherId',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['favorites'],
        summary: 'Adds a teacher to the favourites (idempotent)',
        security,
        params: favoriteParamsSchema,
        response: { 200: favoriteStateSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { teacherId } = request.params;
      if (!(await repository.add(userOf(request).id, teacherId))) {
        throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${teacherId}`);
      }
      return { teacherId, favorite: true };
    },
  );

  r.delete(
    '/api/favorites/:teacherId',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['favorites'],
        summary: 'Removes a teacher from the favourites (idempotent)',
        security,
        params: favoriteParamsSchema,
        response: { 200: favoriteStateSchema, 400: apiErrorSchema, 401: apiErrorSchema },
      },
    },
    async (request) => {
      const { teacherId } = request.params;
      await repository.remove(userOf(request).id, teacherId);
      return { teacherId, favorite: false };
    },
  );
}
