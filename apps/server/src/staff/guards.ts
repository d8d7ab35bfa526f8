import type { SessionUser } from '@learnlingo/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { teacherAccount } from '../db/schema.js';
import { HttpError } from '../plugins/errors.js';

/*
 * Where each role check lives (decision 109): every staff route runs one of these guards as
 * its preHandler. They read the session as every route does (app.sessionUser, once per
 * request): no session → 401, another role → 403. Which rows a teacher may touch (their own
 * profile) is the route's check, with the teacher id the guard found.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: 401 unless signed in, 403 unless an admin; sets request.user */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: 401 unless signed in, 403 unless a teacher bound to a profile; sets request.user and request.teacherId */
    requireTeacher(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** the signed-in teacher's catalogue profile (requireTeacher) */
    teacherId?: string;
  }
}

/** The catalogue profile bound to this account, or null (not a teacher, or not bound yet). */
export async function teacherIdOfUser(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ teacherId: teacherAccount.teacherId }).from(teacherAccount).where(eq(teacherAccount.userId, userId));
  return row?.teacherId ?? null;
}

async function signedInUser(app: FastifyInstance, request: FastifyRequest): Promise<SessionUser> {
  const user = await app.sessionUser(request);
  if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
  return user;
}

/**
 * Decorates the app with `requireAdmin` and `requireTeacher`, the staff routes' preHandlers
 * (`preHandler: app.requireAdmin`). Registered right after the auth plugin (app.ts).
 */
export function registerStaffGuards(app: FastifyInstance): void {
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    const user = await signedInUser(app, request);
    if (user.role !== 'admin') throw new HttpError(403, 'FORBIDDEN', 'Only the school’s admins may do this');
    request.user = user;
  });
  app.decorate('requireTeacher', async (request: FastifyRequest) => {
    const user = await signedInUser(app, request);
    const teacherId = user.role === 'teacher' ? await teacherIdOfUser(app.db.orm, user.id) : null;
    if (teacherId === null) throw new HttpError(403, 'FORBIDDEN', 'Only a teacher with a profile may do this');
    request.user = user;
    request.teacherId = teacherId;
  });
}
