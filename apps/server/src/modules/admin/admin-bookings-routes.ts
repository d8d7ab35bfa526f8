import { adminBookingPageSchema, adminBookingQuerySchema, adminBookingSchema, adminCancelSchema, apiErrorSchema, type AdminBooking } from '@learnlingo/contract';
import { and, desc, eq, gt, gte, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { booking, teacher, teacherAccount, teacherAvailability, user } from '../../db/schema.js';
import { HttpError } from '../../plugins/errors.js';
import { recordActivity } from '../../staff/activity.js';
import { queueLessonMails } from '../booking/booking-mail.js';
import { lessonStatus } from '../booking/booking-routes.js';
import { bookingColumns, toBookingRow } from '../booking/booking-repository.js';
import { LESSON_MS, type Schedule } from '../booking/schedule.js';
import { actorOf } from './actor.js';

/*
 * The console's Bookings (issue 24), admins only: every lesson, filtered by teacher, dates
 * and status and paged on the server; an admin cancels one with a reason, and the learner and
 * the teacher are e-mailed (the teacher's bound account's address, else the school's) in the
 * cancellation's transaction, with its activity row.
 */

export interface AdminBookingsOptions {
  now: () => number;
  /** the school's hours and contact address now (the console's settings, else SCHOOL_*) */
  school: () => Promise<{ schedule: Schedule; email: string | undefined }>;
}

const DAY_MS = 86_400_000;
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

const columns = { ...bookingColumns, phone: booking.phone, teacherEmail: user.email };

const select = (db: Db) =>
  db
    .select(columns)
    .from(booking)
    .innerJoin(teacher, eq(teacher.id, booking.teacherId))
    .leftJoin(teacherAvailability, eq(teacherAvailability.teacherId, booking.teacherId))
    .leftJoin(teacherAccount, eq(teacherAccount.teacherId, booking.teacherId))
    .leftJoin(user, eq(user.id, teacherAccount.userId));

type Selected = Awaited<ReturnType<typeof select>>[number];


function view(r: Selected, at: number): AdminBooking {
  const row = toBookingRow(r);
  const status = lessonStatus(row, at);
  return {
    id: r.id,
    teacher: { id: r.teacherId, name: r.name, surname: r.surname },
    learner: { fullName: r.fullName, email: r.email },
    language: r.language,
    start: r.start?.toISOString() ?? null,
    status,
    createdAt: r.createdAt.toISOString(),
    cancelledAt: status === 'expired' ? null : (r.cancelledAt?.toISOString() ?? null),
    noShow: r.learnerAbsentAt ? 'learner' : r.teacherAbsentAt ? 'teacher' : null,
  };
}

/** The status filter as conditions (the same cases as lessonStatus). */
function statusCondition(status: 'upcoming' | 'past' | 'cancelled' | 'pending', at: Date): SQL {
  const lessonEnd = sql`${booking.start} + interval '${sql.raw(String(LESSON_MS / 60_000))} minutes'`;
  switch (status) {
    case 'upcoming':
      return and(isNull(booking.cancelledAt), isNull(booking.holdExpiresAt), isNotNull(booking.start), sql`${lessonEnd} > ${at}`)!;
    case 'past':
      return and(isNull(booking.cancelledAt), isNull(booking.holdExpiresAt), isNotNull(booking.start), sql`${lessonEnd} <= ${at}`)!;
    case 'pending':
      return and(isNull(booking.cancelledAt), isNotNull(booking.holdExpiresAt), gt(booking.holdExpiresAt, at))!;
    case 'cancelled':
      return and(isNotNull(booking.cancelledAt), or(isNull(booking.holdExpiresAt), lt(booking.cancelledAt, booking.holdExpiresAt)))!;
  }
}

export async function adminBookingsRoutes(app: FastifyInstance, options: AdminBookingsOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = app.requireAdmin;

  r.get(
    '/api/staff/bookings',
    { preHandler, schema: { tags: ['staff'], summary: 'Every lesson, filtered and paged (admins)', querystring: adminBookingQuerySchema, response: { 200: adminBookingPageSchema, ...errors } } },
    async (request, reply) => {
      const { teacherId, from, to, status, page, pageSize } = request.query;
      const at = new Date(options.now());
      const conditions: SQL[] = [];
      if (teacherId) conditions.push(eq(booking.teacherId, teacherId));
      if (from) conditions.push(gte(booking.start, new Date(`${from}T00:00:00Z`)));
      if (to) conditions.push(lt(booking.start, new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS)));
      if (status) conditions.push(statusCondition(status, at));
      const where = conditions.length > 0 ? and(...conditions) : undefined;
      const [rows, [total]] = await Promise.all([
        select(app.db.orm)
          .where(where)
          .orderBy(sql`${booking.start} desc nulls last`, desc(booking.createdAt), desc(booking.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
        app.db.orm.select({ n: sql<number>`count(*)::int` }).from(booking).where(where),
      ]);
      reply.header('cache-control', 'private, no-store');
      return { items: rows.map((row) => view(row, at.getTime())), total: total?.n ?? 0, page, pageSize };
    },
  );

  r.post(
    '/api/staff/bookings/:id/cancel',
    {
      preHandler,
      schema: { tags: ['staff'], summary: 'Cancels a lesson with a reason; learner and teacher are e-mailed (admins)', params: z.object({ id: z.uuid({ error: 'Invalid booking id' }) }), body: adminCancelSchema, response: { 200: adminBookingSchema, ...errors } },
    },
    async (request) => {
      const at = options.now();
      const { reason } = request.body;
      const { schedule: school, email: teacherFallback } = await options.school();
      return app.db.orm.transaction(async (tx) => {
        const [found] = await select(tx).where(eq(booking.id, request.params.id)).for('update', { of: booking });
        if (!found) throw new HttpError(404, 'NOT_FOUND', 'No such booking');
        const before = view(found, at);
        if (before.status === 'cancelled' || before.status === 'expired') return before;
        if (before.status === 'past') throw new HttpError(409, 'CANCEL_TOO_LATE', 'This lesson is over');
        const cancelledAt = new Date(at);
        await tx.update(booking).set({ cancelledAt }).where(eq(booking.id, found.id));
        const after = { ...found, cancelledAt };
        const row = toBookingRow(after);
        // a hold waiting for its link was never announced to the teacher
        // (decision 118: each side's e-mail in their zone, the .ics's next SEQUENCE, the reminders taken back)
        if (row.start && !row.holdExpiresAt) {
          await queueLessonMails(tx, { kind: 'cancelled', by: 'school', reason }, row, { publicOrigin: '', manageUrl: '', schoolSchedule: school, schoolEmail: teacherFallback, now: at });
        }
        const result = view(after, at);
        await recordActivity(tx, {
          actor: actorOf(request),
          action: 'booking.cancel',
          subject: { type: 'booking', id: found.id },
          before: { status: before.status },
          after: { status: result.status, reason },
        });
        return result;
      });
    },
  );
}

