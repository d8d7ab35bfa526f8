import {
  acceptInvitationSchema,
  apiErrorSchema,
  invitationParamsSchema,
  invitationPreviewSchema,
  invitationSchema,
  invitationTokenParamsSchema,
  inviteTeacherSchema,
  teacherInvitationParamsSchema,
  teacherInvitationsSchema,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../plugins/errors.js';
import { acceptInvitation, inviteTeacher, listInvitations, previewInvitation, resendInvitation, revokeInvitation } from './invitations.js';
import { actorOf } from './people.js';

export interface InvitationRoutesOptions {
  publicOrigin: string;
  now: () => number;
}

const security = [{ session: [] }];
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

function staffOf(request: FastifyRequest) {
  if (!request.user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
  return actorOf(request.user);
}

/**
 * Teachers' invitations: the console's (admins only) under /api/staff, and the invited
 * person's two (whoever holds the link) under /api/invitations.
 */
export async function invitationRoutes(app: FastifyInstance, options: InvitationRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = { publicOrigin: options.publicOrigin, now: options.now };

  r.get(
    '/api/staff/teachers/:teacherId/invitations',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: "A teacher profile's account (if bound) and its invitations",
        security,
        params: teacherInvitationParamsSchema,
        response: { 200: teacherInvitationsSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listInvitations(app.db.orm, request.params.teacherId, options.now());
    },
  );

  r.post(
    '/api/staff/teachers/:teacherId/invitations',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: 'Invites an e-mail address to a teacher profile and e-mails the link (revokes a pending one)',
        security,
        params: teacherInvitationParamsSchema,
        body: inviteTeacherSchema,
        response: { 201: invitationSchema, ...errors },
      },
    },
    async (request, reply) => {
      const invitation = await inviteTeacher(app.db.orm, ctx, staffOf(request), request.params.teacherId, request.body.email);
      return reply.code(201).send(invitation);
    },
  );

  r.post(
    '/api/staff/invitations/:id/resend',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: 'E-mails a new link for a pending or expired invitation (the old link stops working)',
        security,
        params: invitationParamsSchema,
        response: { 200: invitationSchema, ...errors },
      },
    },
    async (request) => resendInvitation(app.db.orm, ctx, staffOf(request), request.params.id),
  );

  r.post(
    '/api/staff/invitations/:id/revoke',
    {
      preHandler: app.requireAdmin,
      schema: {
        tags: ['staff'],
        summary: 'Revokes an invitation: its link no longer works',
        security,
        params: invitationParamsSchema,
        response: { 200: invitationSchema, ...errors },
      },
    },
    async (request) => revokeInvitation(app.db.orm, ctx, staffOf(request), request.params.id),
  );

  r.get(
    '/api/invitations/:token',
    {
      schema: {
        tags: ['staff'],
        summary: "What an invitation link's page shows (404 once it was used, revoked or has expired)",
        params: invitationTokenParamsSchema,
        response: { 200: invitationPreviewSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return previewInvitation(app.db.orm, request.params.token, options.now());
    },
  );

  r.post(
    '/api/invitations/accept',
    {
      schema: {
        tags: ['staff'],
        summary: 'Accepts an invitation: sets the password and binds the account, as a teacher, to the profile',
        body: acceptInvitationSchema,
        response: { 200: z.object({ email: z.string() }), 400: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => acceptInvitation(app.db.orm, options.now(), request.body),
  );
}
