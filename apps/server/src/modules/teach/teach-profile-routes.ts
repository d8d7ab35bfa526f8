import { apiErrorSchema, teachProfileInputSchema, teachProfileSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { readConsoleTeacher } from '../../catalogue/index.js';
import { HttpError } from '../../plugins/errors.js';
import { editTeacher, teacherView } from '../admin/admin-teachers-routes.js';
import { photoAddresses, photoUploadRoute, storePhoto } from '../avatars/photo-routes.js';

/*
 * The teacher's own card (issue 25), under requireTeacher: always request.teacherId, never an
 * id from the request. An edit goes through the console's edit (`editTeacher`: the catalogue's
 * single-teacher write, live in list, search and card within the feed's second) with a
 * `profile.update` activity row, so the school moderates afterwards in the console's Activity.
 * No status (the school's) and no hours (the Hours tab's) here.
 */

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

export async function teachProfileRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = app.requireTeacher;

  r.get(
    '/api/teach/profile',
    { preHandler, schema: { tags: ['teach'], summary: "The signed-in teacher's own card, with its status", response: { 200: teachProfileSchema, ...errors } } },
    async (request, reply) => {
      const found = await readConsoleTeacher(app.db.orm, request.teacherId!);
      if (!found) throw new HttpError(404, 'NOT_FOUND', 'Your profile is gone');
      reply.header('cache-control', 'private, no-store');
      return teacherView(found);
    },
  );

  r.put(
    '/api/teach/profile',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: "Sets the signed-in teacher's own card (every field a card shows; not the status, not the hours)",
        description: 'Live at once in the list, search and the card; recorded as `profile.update` in the console\'s activity.',
        body: teachProfileInputSchema,
        response: { 200: teachProfileSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return editTeacher(app.db, request, request.teacherId!, request.body, 'profile.update');
    },
  );

  // the console's upload, for the teacher's own card only: the picture is stored and becomes
  // their photo in the same transaction (the edit's activity row names it)
  await photoUploadRoute(app, {
    url: '/api/teach/profile/photo',
    preHandler,
    tag: 'teach',
    summary: "Uploads the signed-in teacher's photo and puts it on their card: JPEG, PNG or WebP, at most 5 MB",
    store: async (request, variants) => {
      await editTeacher(app.db, request, request.teacherId!, { avatar_url: photoAddresses(variants).avatar_url }, 'profile.update', (tx) => storePhoto(tx, variants));
    },
  });
}
