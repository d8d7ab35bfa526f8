import { apiErrorSchema, closureInputSchema, closureSchema, schoolSettingsInputSchema, schoolSettingsSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors.js';
import { recordActivity } from '../../staff/activity.js';
import { actorOf } from './actor.js';
import { addClosure, readSchool, removeClosure, schoolView, writeSchoolSettings, type SchoolDefaults } from './school-settings.js';

/*
 * The console's School settings (issue 24), admins only: default weekly hours and time zone,
 * contact e-mail, closures. Slots read them per request, so a change shows at once on every
 * server; each write has its activity row in its transaction.
 */

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

export async function adminSchoolRoutes(app: FastifyInstance, defaults: SchoolDefaults, now: () => number): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = app.requireAdmin;
  const current = async () => schoolView(await readSchool(app.db.orm, defaults, { now: now() }));

  r.get(
    '/api/staff/school',
    { preHandler, schema: { tags: ['staff'], summary: "The school's hours, time zone, e-mail and closures (admins)", response: { 200: schoolSettingsSchema, ...errors } } },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return current();
    },
  );

  r.put(
    '/api/staff/school',
    { preHandler, schema: { tags: ['staff'], summary: "Sets the school's hours, time zone and e-mail (admins)", body: schoolSettingsInputSchema, response: { 200: schoolSettingsSchema, ...errors } } },
    async (request) => {
      await app.db.orm.transaction(async (tx) => {
        const before = schoolView(await readSchool(tx, defaults, { now: now() }));
        await writeSchoolSettings(tx, request.body);
        const after = schoolView(await readSchool(tx, defaults, { now: now() }));
        await recordActivity(tx, {
          actor: actorOf(request),
          action: 'school.update',
          subject: { type: 'school', id: 'settings' },
          before: { timeZone: before.timeZone, weeklyHours: before.weeklyHours, contactEmail: before.contactEmail, cancelCutoffHours: before.cancelCutoffHours },
          after: { timeZone: after.timeZone, weeklyHours: after.weeklyHours, contactEmail: after.contactEmail, cancelCutoffHours: after.cancelCutoffHours },
        });
      });
      return current();
    },
  );

  r.post(
    '/api/staff/school/closures',
    { preHandler, schema: { tags: ['staff'], summary: 'Closes the school on these days: no lesson can be booked (admins)', body: closureInputSchema, response: { 201: closureSchema, ...errors } } },
    async (request, reply) => {
      const closure = await app.db.orm.transaction(async (tx) => {
        const added = await addClosure(tx, { ...request.body, reason: request.body.reason ?? '' });
        await recordActivity(tx, { actor: actorOf(request), action: 'closure.create', subject: { type: 'closure', id: added.id }, before: null, after: added });
        return added;
      });
      return reply.code(201).send(closure);
    },
  );

  r.delete(
    '/api/staff/school/closures/:id',
    { preHandler, schema: { tags: ['staff'], summary: 'Removes a closure (admins)', params: z.object({ id: z.uuid({ error: 'Invalid closure id' }) }), response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await app.db.orm.transaction(async (tx) => {
        const removed = await removeClosure(tx, request.params.id);
        if (!removed) throw new HttpError(404, 'NOT_FOUND', 'No such closure');
        await recordActivity(tx, { actor: actorOf(request), action: 'closure.delete', subject: { type: 'closure', id: removed.id }, before: removed, after: null });
      });
      return reply.code(204).send(null);
    },
  );
}
