import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  apiErrorSchema,
  bookingCreatedSchema,
  bookingRequestSchema,
  bookingTokenSchema,
  cancelTooLateMessage,
  lessonListSchema,
  lessonSchema,
  slotsQuerySchema,
  slotsResponseSchema,
  teacherIdSchema,
  lessonMessages,
  tooManyBookingsMessage,
  type BookingCreated,
  type BookingRequest,
  type Lesson,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database, Db } from '../../db/client.js';
import { enqueueMail } from '../../mail/index.js';
import { HttpError, loggableError } from '../../plugins/errors.js';
import { addressForLimit, countBooking, limitKey, mailboxForLimit, pruneBookingLimits, type BookingLimits } from './booking-limits.js';
import { holdMail, lessonCalendar } from './booking-mail.js';
import { createBookingRepository, isSlotTaken, type BookingRow } from './booking-repository.js';
import { bookableWindow, isTimeZone, LESSON_MS, offeredStarts, type Interval, type Schedule } from './schedule.js';
import { beforeCutoff, DEFAULT_CANCEL_CUTOFF_HOURS, earliestRequestStart, lessonState, requestAnswerBy } from './lesson-state.js';
import { lockTeacherLessons, overlapsOtherLesson, readTeacherAvailability } from '../teach/teach-repository.js';
import { expireRequests, readCancelCutoffHours, sweepRequests } from './lesson-actions.js';
import { cancelledByLearner, lessonBooked, lessonRequested, type LessonEventContext } from './lesson-events.js';

/** The school as read for a request (admin/school-settings.ts's School). */
interface School {
  schedule: Schedule;
  closed: Interval[];
  email: string | undefined;
  cancelCutoffHours: number;
}

/** What a lesson's view needs of the school now: its cut-off, and its zone (that of teachers without their own). */
interface SchoolView {
  cutoff: number;
  zone: string;
}

export interface BookingRoutesOptions {
  /** the school's hours, for teachers without their own */
  schoolSchedule: Schedule;
  publicOrigin: string;
  /** receives the teacher's copy of booking e-mails (teachers have no address of their own) */
  schoolEmail: string | undefined;
  /** the clock (ms since the epoch); tests move it */
  now: () => number;
  /** bookings per client address and per e-mail address per hour (decision 102) */
  limits: BookingLimits;
  /** how long a visitor's booking waits for its e-mail link */
  holdMs: number;
  /** how often this server deletes expired holds and spent counts (default a minute; 0: never, tests call sweep) */
  sweepEveryMs?: number;
  /**
   * The school as the console set it, read per request (decision 119): its hours (and zone) for
   * teachers without their own, its closures, its address (the school's copy of lesson e-mails)
   * and its cancellation cut-off. Default: schoolSchedule and schoolEmail, no closures.
   */
  school?: () => Promise<School>;
  /** the school's hours and address read in a change's transaction, for its e-mails (default: schoolSchedule, schoolEmail) */
  schoolSettings?: LessonEventContext['school'];
}

/** An expired hold's row (its link then says "expired") is deleted this long after its expiry. */
export const EXPIRED_HOLD_KEEP_MS = 24 * 3_600_000;

const HOUR_MS = 3_600_000;

/** A private link's token: 256 random bits. Only its SHA-256 is stored. */
export const newBookingToken = () => randomBytes(32).toString('base64url');
export const hashBookingToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Thrown in the booking's transaction (rolling its count back) when a limit is over. */
class LimitExceeded extends Error {
  constructor(readonly waitSeconds: number) {
    super('booking limit exceeded');
  }
}

/** Thrown in the booking's transaction when a lesson overlapping the start appeared since the check (decision 116). */
class LessonOverlaps extends Error {}

/** 429 from `book`: a booking limit is over; `waitSeconds` goes into Retry-After. */
export class TooManyBookings extends HttpError {
  constructor(readonly waitSeconds: number) {
    super(429, 'RATE_LIMITED', tooManyBookingsMessage(waitSeconds));
  }
}

/**
 * What the booking routes do, for the booking page's form posts (booking-form-routes.ts):
 * the same rules, limits, holds and e-mails as the JSON routes, never a copy of them.
 */
export interface BookingActions {
  /** Books as POST /api/bookings does; refusals are HttpErrors (400 with fields, 404, 409 SLOT_TAKEN, TooManyBookings). */
  book(request: FastifyRequest, body: BookingRequest): Promise<BookingCreated>;
  /** Confirms a pending booking as POST /api/bookings/token/:token/confirm does (404; 410 BOOKING_EXPIRED). */
  confirm(token: string): Promise<Lesson>;
  /** Cancels by the private link as POST /api/bookings/token/:token/cancel does (404; 409 CANCEL_TOO_LATE past the cut-off). */
  cancelByToken(token: string): Promise<Lesson>;
}

/** Where a booking stands at `at`, as its learner sees it (decision 102 for pending, 117 for requests). */
export function lessonStatus(row: BookingRow, at: number): Lesson['status'] {
  const state = lessonState(row, at);
  if (state === 'confirmed') return row.start ? 'upcoming' : 'unscheduled';
  return state;
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'No such booking');
const idParams = z.object({ id: z.uuid({ error: 'Invalid booking id' }) });
const tokenParams = z.object({ token: bookingTokenSchema });

export async function bookingRoutes(app: FastifyInstance, options: BookingRoutesOptions): Promise<BookingActions> {
  const repository = createBookingRepository(app.db);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { now, schoolSchedule, publicOrigin, schoolEmail, limits, holdMs } = options;
  const schoolNow =
    options.school ??
    (async (): Promise<School> => ({ schedule: schoolSchedule, closed: [], email: schoolEmail, cancelCutoffHours: await readCancelCutoffHours(app.db.orm) }));
  // each change's e-mails read the school in its own transaction (decision 119)
  const events: LessonEventContext = { schoolSchedule, schoolEmail, publicOrigin, now, school: options.schoolSettings };
  const schoolView = async (): Promise<SchoolView> => {
    const school = await schoolNow();
    return { cutoff: school.cancelCutoffHours, zone: school.schedule.timeZone };
  };

  function toLesson(row: BookingRow, at = now(), view: SchoolView = { cutoff: DEFAULT_CANCEL_CUTOFF_HOURS, zone: schoolSchedule.timeZone }): Lesson {
    const cutoffHours = view.cutoff;
    const start = row.start?.getTime() ?? null;
    const hold = row.holdExpiresAt?.getTime() ?? null;
    const status = lessonStatus(row, at);
    const { schedule, ...teacher } = row.teacher;
    return {
      id: row.id,
      teacher: { ...teacher, timeZone: (schedule ?? { timeZone: view.zone }).timeZone },
      language: row.language,
      start: start === null ? null : new Date(start).toISOString(),
      end: start === null ? null : new Date(start + LESSON_MS).toISOString(),
      status,
      // a hold or a request is not a lesson yet: the learner may withdraw it until it is answered
      cancellable:
        status === 'unscheduled' ||
        status === 'pending' ||
        status === 'requested' ||
        (status === 'upcoming' && beforeCutoff(row.start, at, cutoffHours)),
      reason: row.reason,
      createdAt: row.createdAt.toISOString(),
      cancelledAt: status === 'expired' ? null : (row.cancelledAt?.toISOString() ?? null),
      confirmBy: status === 'pending' ? new Date(hold!).toISOString() : null,
      noShow: row.learnerAbsentAt ? 'learner' : row.teacherAbsentAt ? 'teacher' : null,
      answerBy: status === 'requested' ? row.answerBy!.toISOString() : null,
      // (a visitor's request whose e-mail link was not used in time is a hold that expired, not an unanswered request)
      cancelledBy: row.cancelledBy ?? (status === 'expired' && row.answerBy && !row.holdExpiresAt ? 'expired' : null),
      cancelReason: row.cancelReason ?? null,
      cancelCutoffHours: cutoffHours,
    };
  }

  function sendCalendar(reply: FastifyReply, row: BookingRow, url?: string) {
    const { start } = row;
    if (!start) throw new HttpError(404, 'NOT_FOUND', 'This lesson has no time yet');
    if (row.holdExpiresAt || row.answerBy) throw new HttpError(404, 'NOT_FOUND', 'This lesson is not confirmed');
    return reply
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'attachment; filename="learnlingo-trial-lesson.ics"')
      .type('text/calendar; charset=utf-8')
      .send(lessonCalendar({ ...row, start }, url));
  }

  /** Cancels `row` (already known to be the caller's) or says why not; the e-mails go with it. */
  async function cancel(row: BookingRow, manageUrl: string): Promise<Lesson> {
    const at = now();
    const view = await schoolView();
    const { cutoff } = view;
    const state = lessonState(row, at);
    if (state === 'cancelled' || state === 'declined' || state === 'expired') return toLesson(row, at, view);
    const changed = await app.db.orm.transaction(async (tx) => {
      const done = await repository.cancel(tx, row.id, new Date(at), new Date(at + cutoff * HOUR_MS));
      // a hold was never announced (no calendar file, no school copy): nothing to take back. Asked of
      // the cancel itself, not of `row`: a hold confirmed (or a request accepted) since that read was announced.
      if (done === 'lesson' || done === 'request') {
        await cancelledByLearner(tx, { ...row, cancelledAt: new Date(at), cancelledBy: 'learner' }, events, manageUrl, done === 'request');
      }
      return done !== null;
    });
    if (!changed) {
      // a concurrent cancel or answer got there first, or it is too late
      const current = await repository.findById(row.id);
      if (current && lessonState(current, at) === 'confirmed' && !beforeCutoff(current.start, at, cutoff)) {
        throw new HttpError(409, 'CANCEL_TOO_LATE', cancelTooLateMessage(cutoff));
      }
      return toLesson(current ?? row, at, view);
    }
    return toLesson({ ...row, cancelledAt: new Date(at), cancelledBy: 'learner' }, at, view);
  }

  r.get(
    '/api/teachers/:id/slots',
    {
      schema: {
        tags: ['bookings'],
        summary: "A teacher's free trial-lesson starts (UTC), 12 hours to 14 days ahead",
        params: z.object({ id: teacherIdSchema }),
        querystring: slotsQuerySchema,
        response: { 200: slotsResponseSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const teacher = await repository.teacher(request.params.id);
      if (!teacher || teacher.hidden) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${request.params.id}`);
      const at = now();
      const school = await schoolNow();
      // the teacher's own hours, time off, extra hours, notice and horizon (issue 25, decision 116)
      const availability = await readTeacherAvailability(app.db.orm, teacher.id, school.schedule, at);
      const window = bookableWindow(at, availability);
      // a request leaves its teacher at least an hour to answer before the hour before the start (decision 117)
      if (availability.bookingMode === 'request') window.from = Math.max(window.from, earliestRequestStart(at));
      const from = Math.max(window.from, request.query.from ? Date.parse(request.query.from) : -Infinity);
      const to = Math.min(window.to, request.query.to ? Date.parse(request.query.to) : Infinity);
      // lessons that began up to a lesson's length before `from` still take the starts they overlap
      const booked = to > from ? await repository.bookedStarts(teacher.id, new Date(from - LESSON_MS + 1), new Date(to), new Date(at)) : new Set<number>();
      // the school's closures remove slots at once (issue 24)
      const starts = to > from ? offeredStarts(availability, from, to, school.closed, booked) : [];
      reply.header('cache-control', 'no-store');
      return {
        teacherId: teacher.id,
        timeZone: availability.schedule.timeZone,
        slots: starts.map((s) => new Date(s).toISOString()),
      };
    },
  );

  /** Counts the booking against both limits in `tx`; over either, 429 (and the transaction rolls back). */
  async function countAgainstLimits(tx: Db, ip: string, email: string, at: Date) {
    const waits = [
      await countBooking(tx, limitKey(limits.keySecret, 'address', addressForLimit(ip)), limits.perAddressPerHour, at),
      await countBooking(tx, limitKey(limits.keySecret, 'email', mailboxForLimit(email)), limits.perEmailPerHour, at),
    ].filter((wait): wait is number => wait !== null);
    if (waits.length > 0) throw new LimitExceeded(Math.max(...waits));
  }

  /** POST /api/bookings's work, for the form posts too (BookingActions.book). */
  async function book(request: FastifyRequest, body: BookingRequest): Promise<BookingCreated> {
    const teacher = await repository.teacher(body.teacherId);
    if (!teacher || teacher.hidden) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${body.teacherId}`);
    if (body.language !== undefined && !teacher.languages.includes(body.language)) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { language: "Choose one of the teacher's languages" });
    }
    if (body.timeZone !== undefined && !isTimeZone(body.timeZone)) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { timeZone: 'Unknown time zone' });
    }
    const at = now();
    const start = Date.parse(body.start);
    const school = await schoolNow();
    const availability = await readTeacherAvailability(app.db.orm, teacher.id, school.schedule, at);
    const window = bookableWindow(at, availability);
    // a start still offered: not booked (nor overlapping a lesson) — the same starts the slots answer
    const booked = await repository.bookedStarts(teacher.id, new Date(start - LESSON_MS + 1), new Date(start + LESSON_MS), new Date(at));
    const isStart = Number.isFinite(start) && offeredStarts(availability, start, start + 1, school.closed).includes(start);
    const overlapsLesson = [...booked].some((b) => b !== start);
    if (!isStart || overlapsLesson || start < window.from || start >= window.to) {
      throw new HttpError(400, 'VALIDATION_ERROR', lessonMessages.slotUnavailable, { start: lessonMessages.slotUnavailable });
    }

    const user = await app.sessionUser(request);
    // only an address known to be the booker's gets a lesson at once — the signed-in user's own, once
    // confirmed (better-auth keeps it lower-cased); any other address waits for its link
    const ownAddress = user !== null && body.email.toLowerCase() === user.email.toLowerCase();
    const held = !ownAddress || !(await repository.emailVerified(user.id));
    const holdExpiresAt = held ? new Date(at + holdMs) : null;
    // on request (decision 117): the teacher answers by answer_by (a visitor's from the e-mail link on,
    // so a visitor's request needs its hold's time more ahead)
    const isRequest = availability.bookingMode === 'request';
    if (isRequest && start < earliestRequestStart(at) + (held ? holdMs : 0)) {
      throw new HttpError(400, 'VALIDATION_ERROR', lessonMessages.slotUnavailable, { start: lessonMessages.slotUnavailable });
    }
    const answerBy = isRequest ? new Date(requestAnswerBy(at, start)) : null;
    const token = newBookingToken();
    const link = `${publicOrigin}/bookings/${token}`;
    let row: BookingRow;
    try {
      row = await app.db.orm.transaction(async (tx) => {
        await countAgainstLimits(tx, request.ip, body.email, new Date(at));
        await repository.releaseExpiredHold(tx, teacher.id, new Date(start), new Date(at));
        // a request of this slot left unanswered past its deadline lets go of it too (its learner is told)
        await expireRequests(tx, events, new Date(at), { teacherId: teacher.id, start: new Date(start) });
        // a lesson of this teacher that overlaps without the same start (after a change of zone
        // or hours) is invisible to the unique index: look again, one booking of theirs at a time
        await lockTeacherLessons(tx, teacher.id);
        if (await overlapsOtherLesson(tx, teacher.id, new Date(start), new Date(at))) throw new LessonOverlaps();
        const inserted = await repository.insert(tx, {
          id: randomUUID(),
          teacherId: teacher.id,
          userId: user?.id ?? null,
          reason: body.reason,
          fullName: body.fullName,
          email: body.email,
          phone: body.phone,
          start: new Date(start),
          language: body.language ?? teacher.languages[0] ?? null,
          tokenHash: hashBookingToken(token),
          holdExpiresAt,
          learnerTimeZone: body.timeZone ?? null,
          answerBy,
        });
        // the e-mails exist exactly when the lesson (or hold, or request) does; sending never holds up the answer
        if (holdExpiresAt) {
          const messages = holdMail({ row: inserted, confirmUrl: link, expiresAt: holdExpiresAt, learnerTimeZone: body.timeZone ?? 'UTC' });
          for (const message of messages) await enqueueMail(tx, message);
        } else if (answerBy) {
          await lessonRequested(tx, inserted, events, link);
        } else {
          await lessonBooked(tx, inserted, events, link);
        }
        return inserted;
      });
    } catch (error) {
      // the database's guarantee: one lesson that is not cancelled per teacher and start
      if (isSlotTaken(error) || error instanceof LessonOverlaps) throw new HttpError(409, 'SLOT_TAKEN', lessonMessages.slotTaken, { start: lessonMessages.slotTaken });
      if (error instanceof LimitExceeded) throw new TooManyBookings(error.waitSeconds);
      throw error;
    }
    return { id: row.id, createdAt: row.createdAt.toISOString(), lesson: toLesson(row, at, await schoolView()), token: held ? null : token };
  }

  r.post(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Books a trial lesson at a free start (signed in or not; a signed-in booking is tied to the user)',
        description:
          'Of concurrent bookings of one start exactly one succeeds; the others get 409 SLOT_TAKEN. A booking by a visitor ' +
          '(or a user whose e-mail is not confirmed) is pending: it holds the time until its e-mail link is used ' +
          '(POST /api/bookings/token/:token/confirm) or the hold expires, and the answer has no token. ' +
          'Bookings per client address and per e-mail address are limited per hour: 429 with Retry-After.',
        body: bookingRequestSchema,
        response: { 201: bookingCreatedSchema, 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      try {
        return reply.code(201).send(await book(request, request.body));
      } catch (error) {
        if (error instanceof TooManyBookings) reply.header('retry-after', String(error.waitSeconds));
        throw error;
      }
    },
  );

  // ---------------------------------------------------------------- the signed-in learner's lessons

  r.get(
    '/api/bookings',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: "The signed-in learner's lessons: upcoming soonest first, then the others newest first",
        response: { 200: lessonListSchema, 401: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const at = now();
      const view = await schoolView();
      const lessons = (await repository.listOwned(request.user!.id)).map((row) => toLesson(row, at, view));
      const upcoming = lessons.filter((l) => l.status === 'upcoming').reverse();
      reply.header('cache-control', 'private, no-store');
      return { items: [...upcoming, ...lessons.filter((l) => l.status !== 'upcoming')] };
    },
  );

  const ownedOr404 = async (id: string, userId: string) => (await repository.findOwned(id, userId)) ?? Promise.reject(notFound());

  r.get(
    '/api/bookings/:id',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: "One of the signed-in learner's lessons (404 for anyone else's)",
        params: idParams,
        response: { 200: lessonSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return toLesson(await ownedOr404(request.params.id, request.user!.id), now(), await schoolView());
    },
  );

  r.post(
    '/api/bookings/:id/cancel',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: "Cancels a lesson up to the school's cut-off (default 12 hours) before it starts, or withdraws a request; its time becomes free again",
        params: idParams,
        response: { 200: lessonSchema, 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => cancel(await ownedOr404(request.params.id, request.user!.id), `${publicOrigin}/lessons`),
  );

  r.get(
    '/api/bookings/:id/calendar.ics',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['bookings'],
        summary: 'The lesson as an iCalendar file (UTC times)',
        params: idParams,
        response: { 400: apiErrorSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => sendCalendar(reply, await ownedOr404(request.params.id, request.user!.id), `${publicOrigin}/lessons`),
  );

  // ---------------------------------------------------------------- the private link (/bookings/:token)

  const byTokenOr404 = async (token: string) => (await repository.findByTokenHash(hashBookingToken(token))) ?? Promise.reject(notFound());

  /** POST /api/bookings/token/:token/confirm's work, for the form post too (BookingActions.confirm). */
  async function confirm(token: string): Promise<Lesson> {
    const tokenHash = hashBookingToken(token);
    const row = await byTokenOr404(token);
    const at = now();
    // a visitor's request waits for the teacher from now on (decision 117)
    const answerBy = row.answerBy && row.start ? new Date(requestAnswerBy(at, row.start.getTime())) : null;
    const confirmed = await app.db.orm.transaction(async (tx) => {
      const done = await repository.confirm(tx, tokenHash, new Date(at), answerBy);
      if (done) {
        const current = { ...row, holdExpiresAt: null, answerBy };
        const manageUrl = `${publicOrigin}/bookings/${token}`;
        if (answerBy) await lessonRequested(tx, current, events, manageUrl);
        else await lessonBooked(tx, current, events, manageUrl);
      }
      return done;
    });
    const view = await schoolView();
    const lesson = confirmed ? toLesson({ ...row, holdExpiresAt: null, answerBy }, at, view) : toLesson(await byTokenOr404(token), at, view);
    if (lesson.status === 'expired' && lesson.cancelledBy !== 'expired') throw new HttpError(410, 'BOOKING_EXPIRED', lessonMessages.holdExpired);
    return lesson;
  }

  r.get(
    '/api/bookings/token/:token',
    {
      schema: {
        tags: ['bookings'],
        summary: 'The booking behind a private link',
        params: tokenParams,
        response: { 200: lessonSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return toLesson(await byTokenOr404(request.params.token), now(), await schoolView());
    },
  );

  /** POST /api/bookings/token/:token/cancel's work, for the form post too (BookingActions.cancelByToken). */
  async function cancelByToken(token: string): Promise<Lesson> {
    return cancel(await byTokenOr404(token), `${publicOrigin}/bookings/${token}`);
  }

  r.post(
    '/api/bookings/token/:token/confirm',
    {
      schema: {
        tags: ['bookings'],
        summary: "Confirms a pending booking by its e-mail link: it becomes a lesson and its e-mails (with the .ics) go out",
        description: 'Confirming again answers the lesson as it is; after the hold expired, 410 BOOKING_EXPIRED.',
        params: tokenParams,
        response: { 200: lessonSchema, 400: apiErrorSchema, 404: apiErrorSchema, 410: apiErrorSchema },
      },
    },
    async (request) => confirm(request.params.token),
  );

  r.post(
    '/api/bookings/token/:token/cancel',
    {
      schema: {
        tags: ['bookings'],
        summary: "Cancels the booking behind a private link (a lesson up to the school's cut-off before it starts; a request until it is answered)",
        params: tokenParams,
        response: { 200: lessonSchema, 400: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request) => cancelByToken(request.params.token),
  );

  r.get(
    '/api/bookings/token/:token/calendar.ics',
    {
      schema: {
        tags: ['bookings'],
        summary: 'The booking behind a private link as an iCalendar file',
        params: tokenParams,
        response: { 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => sendCalendar(reply, await byTokenOr404(request.params.token), `${publicOrigin}/bookings/${request.params.token}`),
  );

  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  if (sweepEveryMs > 0) {
    const timer = setInterval(() => {
      const at = now();
      sweepBookings(app.db, at).catch((error: unknown) => app.log.warn({ err: loggableError(error) }, 'could not sweep expired booking holds'));
      // requests nobody answered by their deadline: declined by the server, each learner told (decision 117)
      sweepRequests(app.db, events, at).catch((error: unknown) => app.log.warn({ err: loggableError(error) }, 'could not sweep expired requests'));
    }, sweepEveryMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  return { book, confirm, cancelByToken };
}

/**
 * What a server that runs for months must not keep: holds that expired more than
 * EXPIRED_HOLD_KEEP_MS ago (a visitor's data that was never confirmed) and limit counts whose
 * hour is over. An expired hold stops holding its slot at once without this (decision 102).
 */
export async function sweepBookings(db: Database, at: number): Promise<{ holds: number; limits: number }> {
  const holds = await createBookingRepository(db).deleteExpiredHolds(new Date(at - EXPIRED_HOLD_KEEP_MS));
  return { holds, limits: await pruneBookingLimits(db, at) };
}
