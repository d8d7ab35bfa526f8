import {
  apiErrorSchema,
  cancelTooLateMessage,
  declineLessonInputSchema,
  teacherCancelInputSchema,
  teachLessonSchema,
  type TeachLesson,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { HttpError } from '../../plugins/errors.js';
import { recordActivity } from '../../staff/activity.js';
import { actorOf } from '../admin/actor.js';
import type { BookingRow } from '../booking/booking-repository.js';
import { acceptRequest, cancelByTeacher, declineRequest, findTeachersBooking, readCancelCutoffHours } from '../booking/lesson-actions.js';
import type { LessonEventContext } from '../booking/lesson-events.js';
import { beforeCutoff, lessonState } from '../booking/lesson-state.js';
import { LESSON_MS } from '../booking/schedule.js';

/*
 * The teacher answers a request and cancels a lesson (issue 25, decision 117), under
 * requireTeacher: only bookings of their own profile (another teacher's: 404). Accept and
 * decline change a request that still waits; cancel a confirmed lesson before the school's
 * cut-off, with a reason the learner is told. Each is one conditional UPDATE (lesson-actions.ts),
 * so concurrent answers and the expiry sweep leave exactly one outcome; the loser gets 409 with
 * what happened instead. Each change records an activity row for the console (no learner data).
 */

export interface TeachLessonActionsOptions extends LessonEventContext {
  now: () => number;
}

/** The columns toTeachLesson reads (a BookingRow, or a row of the teacher's lists: teach-lessons-routes.ts). */
export type TeachLessonRow = Pick<
  BookingRow,
  'id' | 'start' | 'fullName' | 'language' | 'reason' | 'createdAt' | 'cancelledAt' | 'holdExpiresAt' | 'answerBy' | 'acceptedAt' | 'cancelledBy' | 'cancelReason'
>;

/** One booking as its teacher sees it (the answer of every action here; the teacher's lists use the same shape). */
export function toTeachLesson(row: TeachLessonRow, at: number, cutoffHours: number): TeachLesson {
  const state = lessonState(row, at);
  const start = row.start?.getTime() ?? null;
  return {
    id: row.id,
    state,
    start: start === null ? null : new Date(start).toISOString(),
    end: start === null ? null : new Date(start + LESSON_MS).toISOString(),
    learner: { fullName: row.fullName },
    language: row.language,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    answerBy: state === 'requested' && row.answerBy ? row.answerBy.toISOString() : null,
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    cancelledBy: row.cancelledBy ?? (state === 'expired' && row.answerBy && !row.holdExpiresAt ? 'expired' : null),
    cancelReason: row.cancelReason ?? null,
    cancellable: state === 'confirmed' && beforeCutoff(row.start, at, cutoffHours),
  };
}

/** What a refused action says, by where the booking stands instead. */
const STATE_MESSAGES: Record<TeachLesson['state'], string> = {
  requested: 'This is a request waiting for your answer: accept or decline it.',
  confirmed: 'This lesson is already confirmed.',
  past: 'This lesson is over.',
  cancelled: 'This lesson was cancelled.',
  declined: 'This request was already declined.',
  expired: 'This request was not answered in time, so the time is free again.',
  pending: 'This booking is not confirmed by its learner yet.',
};

const params = z.object({ id: z.uuid({ error: 'Invalid lesson id' }) });
const responses = { 200: teachLessonSchema, 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

export async function teachLessonActionRoutes(app: FastifyInstance, options: TeachLessonActionsOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { now } = options;
  const preHandler = app.requireTeacher;
  const events: LessonEventContext = { schoolSchedule: options.schoolSchedule, schoolEmail: options.schoolEmail, publicOrigin: options.publicOrigin, now, school: options.school };

  /**
   * Runs `change` (one conditional UPDATE and its e-mails) with its activity row in one
   * transaction. When it changed nothing: 404 if the booking is not this teacher's, else 409
   * saying where it stands (`tooLate`: the message when it is confirmed but past the cut-off).
   */
  async function act(
    request: FastifyRequest,
    id: string,
    action: 'lesson.accept' | 'lesson.decline' | 'lesson.cancel',
    change: (tx: Db, at: Date, cutoffHours: number) => Promise<BookingRow | null>,
  ): Promise<TeachLesson> {
    const teacherId = request.teacherId!;
    const at = now();
    const cutoffHours = await readCancelCutoffHours(app.db.orm);
    const changed = await app.db.orm.transaction(async (tx) => {
      const row = await change(tx, new Date(at), cutoffHours);
      if (row) {
        await recordActivity(tx, {
          actor: actorOf(request),
          action,
          subject: { type: 'teacher', id: teacherId },
          after: { lessonId: row.id, start: row.start?.toISOString() ?? null, state: lessonState(row, at), ...(row.cancelReason ? { reason: row.cancelReason } : {}) },
        });
      }
      return row;
    });
    if (changed) return toTeachLesson(changed, at, cutoffHours);
    const row = await findTeachersBooking(app.db.orm, teacherId, id);
    // a visitor's booking not confirmed by e-mail is not the teacher's to see yet
    if (!row || lessonState(row, at) === 'pending') throw new HttpError(404, 'NOT_FOUND', 'No such lesson');
    const state = lessonState(row, at);
    if (action === 'lesson.cancel' && state === 'confirmed') throw new HttpError(409, 'CANCEL_TOO_LATE', cancelTooLateMessage(cutoffHours));
    throw new HttpError(409, 'LESSON_STATE', STATE_MESSAGES[state]);
  }

  r.post(
    '/api/teach/lessons/:id/accept',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: 'Accepts a request waiting for the teacher: it becomes a confirmed lesson and the learner is told',
        description: 'Of concurrent answers (and the expiry at answerBy) exactly one wins; the others get 409 saying where the lesson stands.',
        params,
        response: responses,
      },
    },
    async (request) => act(request, request.params.id, 'lesson.accept', (tx, at) => acceptRequest(tx, events, request.teacherId!, request.params.id, at)),
  );

  r.post(
    '/api/teach/lessons/:id/decline',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: 'Declines a request waiting for the teacher (reason optional, told to the learner); its time is free again',
        params,
        body: declineLessonInputSchema.nullish(),
        response: responses,
      },
    },
    async (request) => {
      const reason = request.body?.reason || null;
      return act(request, request.params.id, 'lesson.decline', (tx, at) => declineRequest(tx, events, request.teacherId!, request.params.id, at, reason));
    },
  );

  r.post(
    '/api/teach/lessons/:id/cancel',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: "Cancels a confirmed lesson up to the school's cut-off before it starts, with a reason the learner is told",
        params,
        body: teacherCancelInputSchema,
        response: responses,
      },
    },
    async (request) =>
      act(request, request.params.id, 'lesson.cancel', (tx, at, cutoffHours) =>
        cancelByTeacher(tx, events, request.teacherId!, request.params.id, at, cutoffHours, request.body.reason),
      ),
  );
}
