import {
  apiErrorSchema,
  PEOPLE_PAGE_SIZE,
  peoplePageSchema,
  peopleQuerySchema,
  personParamsSchema,
  personSchema,
  setActiveSchema,
  setRoleSchema,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../plugins/errors.js';
import { actorOf, listPeople, setPersonActive, setPersonRole } from './people.js';

const security = [{ session: [] }];
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

function staffOf(request: FastifyRequest) {
  if (!request.user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
  return actorOf(request.user);
}

/** People (admins only): GET /api/staff/people, PUT …/:id/role, PUT …/:id/active. */
export async function peopleRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/staff/people',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: 'Accounts whose name or e-mail holds `q`, newest first, a page at a time',
        security,
        querystring: peopleQuerySchema,
        response: { 200: peoplePageSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      const { q, page = 1 } = request.query;
      return listPeople(app.db.orm, { q: q || undefined, page, pageSize: PEOPLE_PAGE_SIZE });
    },
  );

  r.put(
    '/api/staff/people/:id/role',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: "Changes an account's role (recorded in the activity log)",
        security,
        params: personParamsSchema,
        body: setRoleSchema,
        response: { 200: personSchema, ...errors },
      },
    },
    async (request) => setPersonRole(app.db.orm, staffOf(request), request.params.id, request.body.role),
  );

  r.put(
    '/api/staff/people/:id/active',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: 'Deactivates (sessions end, sign-in refused) or reactivates an account (recorded)',
        security,
        params: personParamsSchema,
        body: setActiveSchema,
        response: { 200: personSchema, ...errors },
      },
    },
    async (request) => setPersonActive(app.db.orm, staffOf(request), request.params.id, request.body.active),
  );
}
