import { bookingTokenSchema, reviewInputSchema, reviewMessages, reviewReplyInputSchema } from '@learnlingo/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors.js';
import { setFlash, type Flash } from '../../plugins/flash.js';
import { acceptFormPosts, formFields, refuseCrossSite } from '../../plugins/form-posts.js';
import { hashBookingToken } from '../booking/booking-routes.js';
import type { StaffGuards } from './review-routes.js';
import type { ReviewedBooking, ReviewService } from './review-service.js';

/*
 * The reviews' forms without JavaScript (issue 26, decision 105): the learner's rating under a
 * past lesson on My lessons (`POST /lessons/:id/review`) and behind the private link
 * (`POST /bookings/:token/review`), "The teacher did not come" beside it (`…/teacher-absent`),
 * and the teacher's answer on /teach (`POST /teach/reviews/:id/reply`). Each is the app's own
 * form, posted natively before the app runs (or without it); the work is the JSON routes'
 * (the review service: the same windows, checks and write path). Taken or refused, the answer
 * is 303 back to the page with the toast's words — or the refusal's — as its status line
 * (flash.ts). A visitor's post on My lessons or /teach is sent to log in and back.
 */

export interface ReviewFormOptions {
  service: ReviewService;
  trustedOrigins: string[];
  /** the roles' teacher guard (decision 109): 403 unless a teacher, then whose profile */
  staff: Pick<StaffGuards, 'requireTeacher' | 'teacherId'>;
}

const idSchema = z.uuid();

/** The flash a refusal of the review service leads to (its messages are the contract's). */
function refusalFlash(error: unknown): Flash {
  if (error instanceof HttpError) {
    if (error.statusCode === 400) {
      const fields = (error.fields ?? {}) as Record<string, string>;
      if (fields.comment) return 'reviewCommentTooLong';
      if (fields.reply) return fields.reply === REPLY_REQUIRED ? 'replyRequired' : 'replyTooLong';
      return 'reviewRatingRequired';
    }
    if (error.statusCode === 409) {
      const flash = CONFLICTS.get(error.message);
      if (flash) return flash;
    }
  }
  throw error;
}

const REPLY_REQUIRED = reviewMessages.replyRequired;
const CONFLICTS = new Map<string, Flash>([
  [reviewMessages.notYet, 'reviewNotYet'],
  [reviewMessages.notReviewable, 'reviewClosed'],
  [reviewMessages.editClosed, 'reviewEditClosed'],
  [reviewMessages.noShowClosed, 'noShowClosed'],
  [reviewMessages.alreadyAnswered, 'replyExists'],
]);

/** The contract's field messages of a parse, as the JSON routes name them. */
function invalid(error: z.ZodError): HttpError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'body');
    fields[key] ??= issue.message;
  }
  return new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', fields);
}

export async function reviewFormRoutes(app: FastifyInstance, options: ReviewFormOptions): Promise<void> {
  const { service } = options;

  /** Runs `work`; 303 to `back` with its flash, or with the refusal's. */
  const answer = async (request: FastifyRequest, reply: FastifyReply, back: string, done: Flash, work: () => Promise<unknown>) => {
    let flash = done;
    try {
      await work();
    } catch (error) {
      flash = refusalFlash(error);
    }
    setFlash(request, reply, flash);
    return reply.header('cache-control', 'no-store').redirect(back, 303);
  };

  /** The posted rating and comment, as POST /api/bookings/:id/review takes them. */
  const reviewInput = (request: FastifyRequest) => {
    const posted = formFields(request);
    const rating = posted.rating === undefined || posted.rating === '' ? undefined : Number(posted.rating);
    const parsed = reviewInputSchema.safeParse({ rating, comment: posted.comment ?? '' });
    if (!parsed.success) throw invalid(parsed.error);
    return parsed.data;
  };

  const notFound = () => new HttpError(404, 'NOT_FOUND', 'No such booking');

  /** The signed-in learner's lesson `id` (a visitor: null, sent to log in). */
  const ownedLesson = async (request: FastifyRequest, reply: FastifyReply): Promise<ReviewedBooking | null> => {
    const id = (request.params as { id?: string }).id ?? '';
    if (!idSchema.safeParse(id).success) throw notFound();
    const user = await app.sessionUser(request);
    if (!user) {
      await reply.header('cache-control', 'no-store').redirect('/login?next=%2Flessons', 303);
      return null;
    }
    return (await service.owned(id, user.id)) ?? Promise.reject(notFound());
  };

  /** The private link's lesson (404 for an unknown or malformed token). */
  const linkedLesson = async (request: FastifyRequest): Promise<{ lesson: ReviewedBooking; back: string }> => {
    const token = bookingTokenSchema.safeParse((request.params as { token?: string }).token);
    if (!token.success) throw notFound();
    const lesson = await service.byTokenHash(hashBookingToken(token.data));
    if (!lesson) throw notFound();
    return { lesson, back: `/bookings/${token.data}` };
  };

  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));

    scope.post('/lessons/:id/review', { schema: { hide: true } }, async (request, reply) => {
      const lesson = await ownedLesson(request, reply);
      if (!lesson) return reply;
      return answer(request, reply, `/lessons#review-${lesson.id}`, 'reviewSaved', () => service.submit(lesson, reviewInput(request)));
    });
    scope.post('/lessons/:id/teacher-absent', { schema: { hide: true } }, async (request, reply) => {
      const lesson = await ownedLesson(request, reply);
      if (!lesson) return reply;
      return answer(request, reply, `/lessons#review-${lesson.id}`, 'teacherAbsentReported', () => service.reportTeacherAbsent(lesson));
    });
    scope.post('/bookings/:token/review', { schema: { hide: true } }, async (request, reply) => {
      const { lesson, back } = await linkedLesson(request);
      return answer(request, reply, back, 'reviewSaved', () => service.submit(lesson, reviewInput(request)));
    });
    scope.post('/bookings/:token/teacher-absent', { schema: { hide: true } }, async (request, reply) => {
      const { lesson, back } = await linkedLesson(request);
      return answer(request, reply, back, 'teacherAbsentReported', () => service.reportTeacherAbsent(lesson));
    });

    // the teacher's one answer (/teach/reviews): a visitor logs in first; anyone but a teacher 403
    scope.post('/teach/reviews/:id/reply', { schema: { hide: true } }, async (request, reply) => {
      const id = (request.params as { id?: string }).id ?? '';
      if (!idSchema.safeParse(id).success) throw new HttpError(404, 'NOT_FOUND', 'No such review');
      const user = await app.sessionUser(request);
      if (!user) return reply.header('cache-control', 'no-store').redirect('/login?next=%2Fteach%2Freviews', 303);
      await options.staff.requireTeacher(request, reply);
      const teacherId = options.staff.teacherId(request);
      return answer(request, reply, `/teach/reviews#review-${id}`, 'replySaved', async () => {
        const parsed = reviewReplyInputSchema.safeParse({ reply: formFields(request).reply ?? '' });
        if (!parsed.success) throw invalid(parsed.error);
        await service.reply(teacherId, id, parsed.data.reply);
      });
    });
  });
}
