import { favoriteParamsSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../../plugins/errors.js';
import { setFlash } from '../../plugins/flash.js';
import { acceptFormPosts, formFields, refuseCrossSite, safeNext } from '../../plugins/form-posts.js';
import { createFavoritesRepository } from './favorites-repository.js';

/**
 * The heart without JavaScript (decision 105): `POST /favorites` with `teacherId`, the state
 * the heart asks for (`favorite=true|false`: idempotent, so a second tap on a slow page does
 * not undo the first) and `next`, the page to go back to (303). A visitor is sent to
 * `/login` with both, and the teacher is added once they have signed in (auth-form-routes.ts).
 */
export async function favoriteFormRoutes(app: FastifyInstance, options: { trustedOrigins: string[] }): Promise<void> {
  const repository = createFavoritesRepository(app.db);
  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));
    scope.post('/favorites', { schema: { hide: true } }, async (request, reply) => {
      const posted = formFields(request);
      const next = safeNext(posted.next);
      if (next === undefined) throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { next: 'Must be a path on this site' });
      const params = favoriteParamsSchema.safeParse({ teacherId: posted.teacherId });
      if (!params.success) throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { teacherId: 'Invalid teacher id' });
      const { teacherId } = params.data;
      const add = posted.favorite !== 'false';
      reply.header('cache-control', 'no-store');

      const user = await app.sessionUser(request);
      if (!user) {
        const query = new URLSearchParams({ next, ...(add && { favorite: teacherId }) });
        return reply.redirect(`/login?${query.toString()}`, 303);
      }
      if (add) {
        if (!(await repository.add(user.id, teacherId))) throw new HttpError(404, 'NOT_FOUND', 'No such teacher');
      } else await repository.remove(user.id, teacherId);
      setFlash(request, reply, add ? 'favoriteAdded' : 'favoriteRemoved');
      return reply.redirect(next, 303);
    });
  });
}
