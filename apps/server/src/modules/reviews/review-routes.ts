import {
  apiErrorSchema,
  bookingTokenSchema,
  importedReviewIdSchema,
  importedReviewListSchema,
  importedReviewSchema,
  lessonReviewListSchema,
  lessonReviewSchema,
  lessonReviewStateSchema,
  lessonReviewStatesSchema,
  reviewHideInputSchema,
  reviewIdSchema,
  reviewInputSchema,
  reviewReplyInputSchema,
  teacherIdSchema,
  teacherReviewsPageSchema,
  teacherReviewsQuerySchema,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { directApiOf, type ReadAnswer } from '../../plugins/direct-api.js';
import { HttpError } from '../../plugins/errors.js';
import { recordActivity } from '../../staff/activity.js';
import { hashBookingToken } from '../booking/booking-routes.js';
import { scheduleLessonSweep } from './lesson-sweep.js';
import { reviewFormRoutes } from './review-form-routes.js';
import { createReviewService, reviewState, type ReviewedBooking, type ReviewService } from './review-service.js';

/*
 * The reviews' HTTP routes (issue 26, decision 112):
 *   learner (signed in):   GET /api/bookings/reviews, POST /api/bookings/:id/review, POST /api/bookings/:id/teacher-absent
 *   learner (private link): GET|POST /api/bookings/token/:token/review, POST /api/bookings/token/:token/teacher-absent
 *   public:                GET /api/teachers/:id/reviews?sort=newest|lowest&page=N
 *   teacher (/teach):      GET /api/teach/reviews, POST /api/teach/reviews/:id/reply, POST /api/teach/lessons/:id/learner-absent
 *   school (console):      GET /api/staff/reviews, POST /api/staff/reviews/:id/hide,
 *                          GET /api/staff/teachers/:id/imported-reviews, POST /api/staff/imported-reviews/:id/hide
 */

/** Who a staff request is: the roles' guards (staff/guards.ts) plug in here. */
export interface StaffGuards {
  /** preHandler: 401/403 unless the request is a teacher's; then `teacherId(request)` is theirs */
  requireTeacher: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  teacherId: (request: FastifyRequest) => string;
  /** preHandler: 401/403 unless the request is an admin's */
  requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** the audit row of a hide (a lesson's review, or an imported one), in its transaction */
  recordHide: (tx: Db, request: FastifyRequest, review: { id: string; teacherId: string; reason: string; imported?: boolean }) => Promise<void>;
}

export interface ReviewRoutesOptions {
  now: () => number;
  /** the staff's guards (default: the roles' requireTeacher / requireAdmin and the audit log) */
  staff?: StaffGuards | undefined;
  /** how often this server counts the lessons that ended in lessons done (default a minute; 0: never, tests call sweepEndedLessons) */
  sweepEveryMs?: number;
  /** the site's origins: given, the pages' review forms post without JavaScript (review-form-routes.ts) */
  trustedOrigins?: string[] | undefined;
}

/** The roles' guards (staff/guards.ts, decision 109) and the audit log (staff/activity.ts). */
function staffGuardsOf(app: FastifyInstance): StaffGuards {
  return {
    requireTeacher: app.requireTeacher,
    teacherId: (request) => request.teacherId!,
    requireAdmin: app.requireAdmin,
    recordHide: (tx, request, review) =>
      recordActivity(tx, {
        actor: { id: request.user!.id, name: request.user!.name, email: request.user!.email },
        action: 'review.hide',
        subject: { type: review.imported ? 'imported-review' : 'review', id: review.id },
        before: { hidden: false },
        after: { hidden: true, reason: review.reason, teacherId: review.teacherId },
      }),
  };
}

const idParams = z.object({ id: z.uuid({ error: 'Invalid booking id' }) });
const tokenParams = z.object({ token: bookingTokenSchema });
const reviewParams = z.object({ id: reviewIdSchema });
const notFound = () => new HttpError(404, 'NOT_FOUND', 'No such booking');

export async function reviewRoutes(app: FastifyInstance, options: ReviewRoutesOptions): Promise<ReviewService> {
  const service = createReviewService(app.db, options.now);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const staff = options.staff ?? staffGuardsOf(app);
  const { requireTeacher, requireAdmin } = staff;

  const owned = async (id: string, request: FastifyRequest): Promise<ReviewedBooking> =>
    (await service.owned(id, request.user!.id)) ?? Promise.reject(notFound());
  const byToken = async (token: string): Promise<ReviewedBooking> =>
    (await service.byTokenHash(hashBookingToken(token))) ?? Promise.reject(notFound());
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

  // ---------------------------------------------------------------- the learner

  r.get(
    '/api/bookings/reviews',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reviews'],
        summary: "The review state of each of the signed-in learner's lessons (ask, rated, missed)",
        response: { 200: lessonReviewStatesSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return { items: await service.states(request.user!.id) };
    },
  );

  r.post(
    '/api/bookings/:id/review',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reviews'],
        summary: 'Rates one of the learner\'s lessons once it has ended (1–5, an optional comment); again to change it within 14 days',
        description: 'One review per lesson. 404 for anyone but the lesson\'s learner; 409 REVIEW_CLOSED before the end, for a cancelled or missed lesson, or after the edit window.',
        params: idParams,
        body: reviewInputSchema,
        response: { 200: lessonReviewStateSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.submit(await owned(request.params.id, request), request.body);
    },
  );

  r.post(
    '/api/bookings/:id/teacher-absent',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['reviews'],
        summary: 'The learner reports that the teacher did not come (within 48 hours of the end; the school sees it)',
        params: idParams,
        response: { 200: lessonReviewStateSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.reportTeacherAbsent(await owned(request.params.id, request));
    },
  );

  r.get(
    '/api/bookings/token/:token/review',
    {
      schema: {
        tags: ['reviews'],
        summary: 'The review state of the lesson behind a private link',
        params: tokenParams,
        response: { 200: lessonReviewStateSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return reviewState(await byToken(request.params.token), options.now());
    },
  );

  r.post(
    '/api/bookings/token/:token/review',
    {
      schema: {
        tags: ['reviews'],
        summary: 'Rates the lesson behind a private link (as POST /api/bookings/:id/review)',
        params: tokenParams,
        body: reviewInputSchema,
        response: { 200: lessonReviewStateSchema, 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.submit(await byToken(request.params.token), request.body);
    },
  );

  r.post(
    '/api/bookings/token/:token/teacher-absent',
    {
      schema: {
        tags: ['reviews'],
        summary: 'Reports through a private link that the teacher did not come',
        params: tokenParams,
        response: { 200: lessonReviewStateSchema, 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.reportTeacherAbsent(await byToken(request.params.token));
    },
  );

  // ---------------------------------------------------------------- the public

  // (the route's reader: the server's pages call it in process too, direct-api.ts)
  const publicReviewsSchema = {
    tags: ['reviews'],
    summary: "One page of a teacher's visible reviews (lessons taken here and imported), newest or lowest rating first",
    params: z.object({ id: teacherIdSchema }),
    querystring: teacherReviewsQuerySchema,
    response: { 200: teacherReviewsPageSchema, 400: apiErrorSchema, 404: apiErrorSchema },
  };
  const readPublicReviews = async ({
    params,
    query,
  }: {
    params: { id: string };
    query: z.output<typeof teacherReviewsQuerySchema>;
  }): Promise<ReadAnswer> => {
    const body = await service.publicPageJson(params.id, query.sort, query.page);
    if (body === null) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${params.id}`);
    // a review's change reaches the page within the feed's second; no cache keeps it longer
    return { headers: { 'cache-control': 'no-cache' }, body };
  };
  directApiOf(app).serve('/api/teachers/:id/reviews', publicReviewsSchema, readPublicReviews);

  // ---------------------------------------------------------------- the teacher

  r.get(
    '/api/teach/reviews',
    {
      preHandler: requireTeacher,
      schema: {
        tags: ['teach'],
        summary: 'Every review about the signed-in teacher, hidden ones too, newest first',
        response: { 200: lessonReviewListSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return { items: await service.aboutTeacher(staff.teacherId(request)) };
    },
  );

  r.post(
    '/api/teach/reviews/:id/reply',
    {
      preHandler: requireTeacher,
      schema: {
        tags: ['teach'],
        summary: 'The teacher answers a review about them, once, publicly',
        params: reviewParams,
        body: reviewReplyInputSchema,
        response: { 200: lessonReviewSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      return service.reply(staff.teacherId(request), request.params.id, request.body.reply);
    },
  );

  r.post(
    '/api/teach/lessons/:id/learner-absent',
    {
      preHandler: requireTeacher,
      schema: {
        tags: ['teach'],
        summary: 'The teacher marks that the learner did not come (within 48 hours of the end): no review is asked',
        params: idParams,
        response: { 204: z.null(), 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      await service.markLearnerAbsent(staff.teacherId(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  // ---------------------------------------------------------------- the school

  r.get(
    '/api/staff/reviews',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'The newest reviews of lessons, hidden ones too',
        response: { 200: lessonReviewListSchema, 401: apiErrorSchema, 403: apiErrorSchema },
      },
    },
    async (_request, reply) => {
      noStore(reply);
      return { items: await service.latest() };
    },
  );

  r.post(
    '/api/staff/reviews/:id/hide',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "Hides a review with a reason: it leaves the teacher's page, rating and count; its learner and teacher see why",
        params: reviewParams,
        body: reviewHideInputSchema,
        response: { 200: lessonReviewSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const hidden = await service.hide(request.params.id, request.body.reason, (tx, review) =>
        staff.recordHide(tx, request, { id: review.id, teacherId: review.teacherId, reason: request.body.reason }),
      );
      if (!hidden) throw new HttpError(404, 'NOT_FOUND', 'No such review');
      return hidden;
    },
  );

  r.get(
    '/api/staff/teachers/:id/imported-reviews',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "A teacher's imported reviews in their order, hidden ones too",
        params: z.object({ id: teacherIdSchema }),
        response: { 200: importedReviewListSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const items = await service.importedOf(request.params.id);
      if (!items) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${request.params.id}`);
      return { items };
    },
  );

  r.post(
    '/api/staff/imported-reviews/:id/hide',
    {
      preHandler: requireAdmin,
      schema: {
        tags: ['admin'],
        summary: "Hides an imported review with a reason: it leaves the teacher's card, page, rating and count",
        description: 'A re-import of the teacher replaces its imported reviews with the source\'s (the hide does not survive it).',
        params: z.object({ id: importedReviewIdSchema }),
        body: reviewHideInputSchema,
        response: { 200: importedReviewSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      noStore(reply);
      const hidden = await service.hideImported(request.params.id, request.body.reason, (tx, row) =>
        staff.recordHide(tx, request, { id: String(row.id), teacherId: row.teacherId, reason: request.body.reason, imported: true }),
      );
      if (!hidden) throw new HttpError(404, 'NOT_FOUND', 'No such review');
      return hidden;
    },
  );

  if (options.trustedOrigins) await reviewFormRoutes(app, { service, trustedOrigins: options.trustedOrigins, staff });
  scheduleLessonSweep(app, options.now, options.sweepEveryMs ?? 60_000);
  return service;
}
