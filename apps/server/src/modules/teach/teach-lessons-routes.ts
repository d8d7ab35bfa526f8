import {
  apiErrorSchema,
  DEFAULT_CANCEL_CUTOFF_HOURS,
  teachLessonsFirstPagesQuerySchema,
  teachLessonsFirstPagesSchema,
  teachLessonsPageSchema,
  teachLessonsQuerySchema,
  WEEKDAY_NAMES,
  type TeachLessonItem,
  type TeachLessonsPage,
  type TeachLessonView,
  type WallClock,
} from '@learnlingo/contract';
import { and, asc, desc, eq, gt, isNotNull, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createCursorCodec, type CursorPosition } from '../../catalogue/index.js';
import type { Db } from '../../db/client.js';
import { booking, schoolSettings, teacherAvailability } from '../../db/schema.js';
import { HttpError } from '../../plugins/errors.js';
import { LESSON_MS, offsetAt } from '../booking/schedule.js';
import { toTeachLesson } from './teach-lesson-actions.js';

/*
 * The teacher's Lessons (issue 25, decision 122): GET /api/teach/lessons, under requireTeacher
 * (only request.teacherId's lessons). Three views of one partition of the teacher's bookings
 * that have a time and are not a visitor's unconfirmed hold (decision 102):
 *   requests  a request still waiting for the answer (answer_by in the future), soonest deadline first;
 *   upcoming  any other booking whose end is still ahead, soonest first;
 *   past      any other booking whose end has come, newest first.
 * Paged by keyset on the server: the cursor is the last item's (instant, id), signed, bound to
 * the view and the teacher. The past view reads booking_teacher_start_idx (teacher_id, start,
 * id) backwards, so its pages cost the same at any depth (migration 0028).
 */

export interface TeachLessonsRoutesOptions {
  now: () => number;
  /** signs the cursors (AUTH_SECRET) */
  cursorSecret: string;
  /** the environment's school zone (SCHOOL_TIME_ZONE), under the console's setting: the teacher's when they keep no hours of their own */
  schoolTimeZone: string;
}

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };
const pad = (n: number) => String(n).padStart(2, '0');

/** An instant on the clock of `timeZone`. */
export function wallClock(instant: number, timeZone: string): WallClock {
  // the zone's offset then (cached by schedule.ts: lessons start on the hour), and the clock read from it
  const offset = offsetAt(instant, timeZone);
  const w = new Date(Math.floor(instant / 1000) * 1000 + offset);
  const offsetMinutes = Math.round(offset / 60_000);
  const abs = Math.abs(offsetMinutes);
  return {
    date: `${w.getUTCFullYear()}-${pad(w.getUTCMonth() + 1)}-${pad(w.getUTCDate())}`,
    weekday: WEEKDAY_NAMES[(w.getUTCDay() + 6) % 7]!,
    time: `${pad(w.getUTCHours())}:${pad(w.getUTCMinutes())}`,
    offset: `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`,
  };
}

const columns = {
  id: booking.id,
  start: booking.start,
  fullName: booking.fullName,
  language: booking.language,
  reason: booking.reason,
  createdAt: booking.createdAt,
  cancelledAt: booking.cancelledAt,
  holdExpiresAt: booking.holdExpiresAt,
  answerBy: booking.answerBy,
  acceptedAt: booking.acceptedAt,
  cancelledBy: booking.cancelledBy,
  cancelReason: booking.cancelReason,
};

/** Each view: which bookings, its order's key column and direction. */
function viewOf(view: TeachLessonView, at: Date) {
  const waiting = and(isNotNull(booking.answerBy), isNull(booking.cancelledAt), gt(booking.answerBy, at))!;
  const notWaiting = or(isNull(booking.answerBy), isNotNull(booking.cancelledAt), lte(booking.answerBy, at))!;
  const endedBy = new Date(at.getTime() - LESSON_MS);
  switch (view) {
    case 'requests':
      return { where: waiting, key: booking.answerBy, ascending: true };
    case 'upcoming':
      return { where: and(notWaiting, gt(booking.start, endedBy))!, key: booking.start, ascending: true };
    case 'past':
      return { where: and(notWaiting, lte(booking.start, endedBy))!, key: booking.start, ascending: false };
  }
}

/** The statement of one page of a view (the rows after `after` in the view's order), for the route and its plan's test. */
export function selectTeachLessons(
  orm: Db,
  { teacherId, view, at, after, limit }: { teacherId: string; view: TeachLessonView; at: Date; after: CursorPosition | null; limit: number },
) {
  const { where, key, ascending } = viewOf(view, at);
  const conditions: SQL[] = [eq(booking.teacherId, teacherId), isNull(booking.holdExpiresAt), isNotNull(booking.start), where];
  if (after) {
    const than = sql.raw(ascending ? '>' : '<');
    conditions.push(sql`(${key}, ${booking.id}) ${than} (${new Date(after.value).toISOString()}::timestamptz, ${after.id}::uuid)`);
  }
  return orm
    .select(columns)
    .from(booking)
    .where(and(...conditions))
    .orderBy(...(ascending ? [asc(key), asc(booking.id)] : [desc(key), desc(booking.id)]))
    .limit(limit);
}

export async function teachLessonsRoutes(app: FastifyInstance, options: TeachLessonsRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cursors = createCursorCodec(options.cursorSecret);
  const scopeOf = (view: TeachLessonView, teacherId: string) => `teach-lessons ${view} ${teacherId}`;

  /** The teacher's zone (their hours', else the console's school zone, else the environment's) and the school's cut-off: one statement. */
  async function settings(teacherId: string) {
    const [row] = await app.db.rows<{ own: string | null; school: string | null; cutoff: number | null }>(sql`
      select (select ${teacherAvailability.timeZone} from ${teacherAvailability} where ${teacherAvailability.teacherId} = ${teacherId}) as own,
             (select ${schoolSettings.timeZone} from ${schoolSettings} where ${schoolSettings.id} = 1) as school,
             (select ${schoolSettings.cancelCutoffHours} from ${schoolSettings} where ${schoolSettings.id} = 1) as cutoff`);
    return {
      timeZone: row?.own ?? row?.school ?? options.schoolTimeZone,
      cutoffHours: row?.cutoff ?? DEFAULT_CANCEL_CUTOFF_HOURS,
    };
  }

  /** A page's rows and one more (which only says whether there is a next page). */
  const rowsOf = (teacherId: string, view: TeachLessonView, now: number, after: CursorPosition | null, limit: number) =>
    selectTeachLessons(app.db.orm, { teacherId, view, at: new Date(now), after, limit: limit + 1 });

  /** The page as the API answers it: each lesson with its times on the teacher's clock, and the next page's cursor. */
  function pageOf(
    teacherId: string,
    view: TeachLessonView,
    now: number,
    rows: Awaited<ReturnType<typeof rowsOf>>,
    limit: number,
    { timeZone, cutoffHours }: Awaited<ReturnType<typeof settings>>,
  ): TeachLessonsPage {
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const lastKey = last ? (view === 'requests' ? last.answerBy : last.start) : null;
    return {
      view,
      timeZone,
      items: page.map((row): TeachLessonItem => {
        const lesson = toTeachLesson(row, now, cutoffHours);
        const start = row.start!.getTime();
        return {
          ...lesson,
          localStart: wallClock(start, timeZone),
          localEnd: wallClock(start + LESSON_MS, timeZone),
          answerByLocal: lesson.answerBy ? wallClock(Date.parse(lesson.answerBy), timeZone) : null,
        };
      }),
      nextCursor: rows.length > limit && last && lastKey ? cursors.encode({ value: lastKey.getTime(), id: last.id }, scopeOf(view, teacherId)) : null,
    };
  }

  r.get(
    '/api/teach/lessons',
    {
      preHandler: app.requireTeacher,
      schema: {
        tags: ['teach'],
        summary: "The signed-in teacher's lessons: requests waiting for an answer, upcoming or past, a page at a time",
        description:
          'requests: soonest deadline first; upcoming: soonest first (until a lesson ends); past: newest first. ' +
          'Each with the learner, language, reason and its times as instants and on the teacher’s clock (timeZone). ' +
          '`nextCursor` continues the same view only (another view’s or a garbled cursor: 400 BAD_CURSOR).',
        querystring: teachLessonsQuerySchema,
        response: { 200: teachLessonsPageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const teacherId = request.teacherId!;
      const { view, cursor, limit } = request.query;
      const after = cursor === undefined ? null : cursors.decode(cursor, scopeOf(view, teacherId));
      if (cursor !== undefined && after === null) {
        throw new HttpError(400, 'BAD_CURSOR', 'The cursor is not one this server issued for this view', { cursor: 'Invalid cursor' });
      }
      const now = options.now();
      const [page, rules] = await Promise.all([rowsOf(teacherId, view, now, after, limit), settings(teacherId)]);
      reply.header('cache-control', 'private, no-store');
      return pageOf(teacherId, view, now, page, limit, rules);
    },
  );

  r.get(
    '/api/teach/lessons/first-pages',
    {
      preHandler: app.requireTeacher,
      schema: {
        tags: ['teach'],
        summary: 'The first page of each view of the signed-in teacher’s lessons at once (what /teach/lessons shows first)',
        querystring: teachLessonsFirstPagesQuerySchema,
        response: { 200: teachLessonsFirstPagesSchema, ...errors },
      },
    },
    async (request, reply) => {
      const teacherId = request.teacherId!;
      const { limit } = request.query;
      const now = options.now();
      const [requests, upcoming, past, rules] = await Promise.all([
        rowsOf(teacherId, 'requests', now, null, limit),
        rowsOf(teacherId, 'upcoming', now, null, limit),
        rowsOf(teacherId, 'past', now, null, limit),
        settings(teacherId),
      ]);
      reply.header('cache-control', 'private, no-store');
      return {
        requests: pageOf(teacherId, 'requests', now, requests, limit, rules),
        upcoming: pageOf(teacherId, 'upcoming', now, upcoming, limit, rules),
        past: pageOf(teacherId, 'past', now, past, limit, rules),
      };
    },
  );
}
