import { bookingRequestSchema, bookingTokenSchema, lessonMessages, teacherIdSchema } from '@learnlingo/contract';
import type { FormEcho } from '@learnlingo/contract/plain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../plugins/errors.js';
import { acceptFormPosts, formFields, refuseCrossSite } from '../../plugins/form-posts.js';
import type { PageRenderer } from '../../plugins/ssr.js';
import { TooManyBookings, type BookingActions } from './booking-routes.js';

/*
 * Booking without JavaScript (decision 105): the server-rendered /teachers/:id/book page posts
 * its form here, and the private page /bookings/:token its "Confirm lesson". Both go through
 * the booking routes' own work (BookingActions: the same rules, limits, holds and e-mails as
 * POST /api/bookings and …/confirm). A refusal renders the booking page again with what was
 * typed and each field's message; a booking renders the page's confirmation.
 */

/** The booking form's fields, as the page names them (those of POST /api/bookings). */
const FIELDS = ['reason', 'fullName', 'email', 'phone', 'start', 'language', 'timeZone'] as const;

export interface BookingFormOptions {
  actions: BookingActions;
  trustedOrigins: string[];
  /** the page renderer (undefined when the web app is not built: answers are then JSON) */
  renderPage?: PageRenderer;
}

/** The booking page's URL, its times in `timeZone`. */
function bookPageUrl(teacherId: string, timeZone: string | undefined): string {
  const path = `/teachers/${encodeURIComponent(teacherId)}/book`;
  return timeZone ? `${path}?${new URLSearchParams({ tz: timeZone }).toString()}` : path;
}

/** The first message of each field a zod check refused. */
function fieldMessages(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (typeof field === 'string') errors[field] ??= issue.message;
  }
  return errors;
}

/** What a refused booking says on the page: each field's message, and one for the form. */
function refusalOf(error: HttpError): Pick<FormEcho, 'errors' | 'message'> {
  const errors = { ...error.fields };
  // (the zone is a hidden field: its message goes to the form)
  const message = errors.timeZone ?? (error.message === 'Invalid request body' ? undefined : error.message);
  delete errors.timeZone;
  return { errors, ...(message !== undefined && { message }) };
}

export async function bookingFormRoutes(app: FastifyInstance, options: BookingFormOptions): Promise<void> {
  const { actions, renderPage } = options;

  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));

    scope.post<{ Params: { id: string } }>('/teachers/:id/book', { schema: { hide: true } }, async (request, reply) => {
      const posted = formFields(request);
      const teacherId = request.params.id;
      const values: Record<string, string> = {};
      for (const field of FIELDS) if (typeof posted[field] === 'string') values[field] = posted[field];
      const timeZone = values.timeZone || undefined;

      const answer = (status: number, echo: Omit<FormEcho, 'form' | 'values'>, kept = values) => {
        if (!renderPage) {
          if (echo.booked) return reply.code(201).send(echo.booked.created);
          return reply.code(status).send({ error: { code: 'VALIDATION_ERROR', message: echo.message ?? 'Invalid request body', fields: echo.errors } });
        }
        return renderPage(request, reply, { url: bookPageUrl(teacherId, timeZone), status, echo: { form: 'booking', values: kept, ...echo } });
      };

      // an id that is no teacher's: the page itself answers 404
      if (!teacherIdSchema.safeParse(teacherId).success) return answer(404, { errors: {} });
      const parsed = bookingRequestSchema.safeParse({
        teacherId,
        reason: posted.reason,
        fullName: posted.fullName,
        email: posted.email,
        phone: posted.phone,
        start: posted.start,
        ...(values.language && { language: values.language }),
        ...(timeZone && { timeZone }),
      });
      if (!parsed.success) return answer(400, refusalOf(new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', fieldMessages(parsed.error.issues))));

      try {
        const created = await actions.book(request, parsed.data);
        reply.header('cache-control', 'no-store');
        return answer(200, { errors: {}, booked: { created, timeZone: timeZone ?? 'UTC' } });
      } catch (error) {
        if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
        if (error instanceof TooManyBookings) reply.header('retry-after', String(error.waitSeconds));
        // a time refused is no longer chosen: the page shows the times that are free now
        const { start: _start, ...withoutStart } = values;
        const kept = error.fields?.start ? withoutStart : values;
        if (error.statusCode === 409) return answer(409, { errors: { start: lessonMessages.slotTaken }, message: lessonMessages.slotTaken }, kept);
        return answer(error.statusCode, error.statusCode === 400 ? refusalOf(error) : { errors: {}, message: error.message }, kept);
      }
    });

    /**
     * "Confirm lesson" on a pending booking's private page: confirms it (or finds it expired)
     * and goes back to that page, which shows where the booking stands.
     */
    scope.post<{ Params: { token: string } }>('/bookings/:token/confirm', { schema: { hide: true } }, async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const token = bookingTokenSchema.safeParse(request.params.token);
      if (!token.success) throw new HttpError(404, 'NOT_FOUND', 'No such booking');
      let confirmed = false;
      try {
        // a lesson, or a request now waiting for the teacher (decision 117)
        const { status } = await actions.confirm(token.data);
        confirmed = status === 'upcoming' || status === 'requested';
      } catch (error) {
        // expired or gone: the page says which
        if (!(error instanceof HttpError) || (error.statusCode !== 404 && error.statusCode !== 410)) throw error;
      }
      return reply
        .header('cache-control', 'no-store')
        .redirect(`/bookings/${token.data}${confirmed ? '?confirmed' : ''}`, 303);
    });

    /**
     * "Cancel lesson" (or "Withdraw request") on the private page without JavaScript: cancels
     * under the same cut-off as the API (decision 117) and goes back to the page, which says
     * what happened (`?cancel=late`: past the cut-off).
     */
    scope.post<{ Params: { token: string } }>('/bookings/:token/cancel', { schema: { hide: true } }, async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const token = bookingTokenSchema.safeParse(request.params.token);
      if (!token.success) throw new HttpError(404, 'NOT_FOUND', 'No such booking');
      let outcome = '';
      try {
        const { status } = await actions.cancelByToken(token.data);
        if (status === 'cancelled') outcome = '?cancelled';
      } catch (error) {
        if (!(error instanceof HttpError) || (error.statusCode !== 404 && error.statusCode !== 409)) throw error;
        if (error.statusCode === 409) outcome = '?cancel=late';
      }
      return reply.header('cache-control', 'no-store').redirect(`/bookings/${token.data}${outcome}`, 303);
    });
  });
}
