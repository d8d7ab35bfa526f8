import {
  apiErrorSchema,
  EXTRA_HOURS_MAX,
  extraHoursInputSchema,
  extraHoursSchema,
  formatWeeklyHours,
  PREVIEW_DAYS,
  teachAvailabilityInputSchema,
  teachAvailabilitySchema,
  teachEntryParamsSchema,
  teachPreviewQuerySchema,
  teachPreviewSchema,
  TIME_OFF_MAX,
  timeOffInputSchema,
  timeOffSchema,
  WEEKDAY_NAMES,
  wholeHourText,
  type ExtraHoursEntry,
  type TeachAvailability,
  type TeachPreview,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../plugins/errors.js';
import { recordActivity } from '../../staff/activity.js';
import { actorOf } from '../admin/actor.js';
import type { School } from '../admin/school-settings.js';
import { createBookingRepository } from '../booking/booking-repository.js';
import { bookableWindow, LESSON_MS, offeredStarts, wallTime, type WeeklyHours } from '../booking/schedule.js';
import {
  addExtraHours,
  addTimeOff,
  liveEntryCounts,
  readTeacherAvailability,
  removeExtraHours,
  removeTimeOff,
  writeTeacherAvailability,
  type ExtraHoursRow,
  type TeacherAvailabilityRecord,
} from './teach-repository.js';

/*
 * The teacher's own hours (issue 25, decision 116), under requireTeacher: only their own
 * profile (request.teacherId), never one named in the request. Each write records its
 * activity row in its own transaction, so the console's Activity shows it.
 */

export interface TeachRoutesOptions {
  /** the school now: its hours (for a teacher without their own) and closures */
  school: () => Promise<School>;
  now: () => number;
}

const DAY_MS = 86_400_000;
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

const invalid = (field: string, message: string) => new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { [field]: message });

const hoursView = (hours: WeeklyHours) => hours.map((day) => day.map(([from, to]) => ({ from: wholeHourText(from!), to: wholeHourText(to!) })));
const extraView = (row: ExtraHoursRow): ExtraHoursEntry => ({ id: row.id, on: row.on, from: wholeHourText(row.fromHour), to: wholeHourText(row.toHour) });

function view(teacherId: string, a: TeacherAvailabilityRecord): TeachAvailability {
  return {
    teacherId,
    timeZone: a.schedule.timeZone,
    weeklyHours: hoursView(a.schedule.hours),
    ownHours: a.ownHours,
    noticeHours: a.noticeHours,
    horizonDays: a.horizonDays,
    bookingMode: a.bookingMode,
    timeOff: a.timeOff,
    extraHours: a.extraHours.map(extraView),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The calendar day (YYYY-MM-DD) at an instant in `timeZone`. */
export function dayIn(instant: number, timeZone: string): string {
  const w = wallTime(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}
const weekdayOf = (day: string) => WEEKDAY_NAMES[(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7]!;

export async function teachRoutes(app: FastifyInstance, { school, now }: TeachRoutesOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = app.requireTeacher;
  const bookings = createBookingRepository(app.db);
  const teacherOf = (request: FastifyRequest) => request.teacherId!;
  const current = async (teacherId: string) => readTeacherAvailability(app.db.orm, teacherId, (await school()).schedule, now());

  r.get(
    '/api/teach/availability',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: "The signed-in teacher's zone, weekly hours, notice, horizon, time off and extra hours",
        response: { 200: teachAvailabilitySchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return view(teacherOf(request), await current(teacherOf(request)));
    },
  );

  r.put(
    '/api/teach/availability',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: "Sets the signed-in teacher's zone, weekly hours (in that zone), notice and horizon",
        description: 'Lessons already booked keep their instants; a start that now overlaps one is not offered.',
        body: teachAvailabilityInputSchema,
        response: { 200: teachAvailabilitySchema, ...errors },
      },
    },
    async (request, reply) => {
      const teacherId = teacherOf(request);
      const { timeZone, weeklyHours, noticeHours, horizonDays } = request.body;
      const hours: WeeklyHours = weeklyHours.map((day) => day.map(({ from, to }) => [from, to] as number[]).sort((a, b) => a[0]! - b[0]!));
      const schoolNow = await school();
      await app.db.orm.transaction(async (tx) => {
        const before = await readTeacherAvailability(tx, teacherId, schoolNow.schedule, now());
        // left out, the booking mode stays as it is (decision 117)
        const bookingMode = request.body.bookingMode ?? before.bookingMode;
        await writeTeacherAvailability(tx, teacherId, { timeZone, weeklyHours: hours, noticeHours, horizonDays, bookingMode });
        await recordActivity(tx, {
          actor: actorOf(request),
          action: 'hours.update',
          subject: { type: 'teacher', id: teacherId },
          before: before.ownHours
            ? {
                timeZone: before.schedule.timeZone,
                weeklyHours: formatWeeklyHours(before.schedule.hours),
                noticeHours: before.noticeHours,
                horizonDays: before.horizonDays,
                bookingMode: before.bookingMode,
              }
            : null,
          // in the console's syntax, as the school's own hours are logged
          after: { timeZone, weeklyHours: formatWeeklyHours(hours), noticeHours, horizonDays, bookingMode },
        });
      });
      reply.header('cache-control', 'private, no-store');
      return view(teacherId, await current(teacherId));
    },
  );

  /** The teacher's "today" in their own zone: entries that end before it are refused. */
  const todayOf = async (teacherId: string) => dayIn(now(), (await current(teacherId)).schedule.timeZone);

  r.post(
    '/api/teach/time-off',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: 'Adds time off: days in the teacher\'s zone, both included (one entry for a whole holiday)',
        body: timeOffInputSchema,
        response: { 201: timeOffSchema, ...errors },
      },
    },
    async (request, reply) => {
      const teacherId = teacherOf(request);
      const { startsOn, endsOn, reason } = request.body;
      if (endsOn < (await todayOf(teacherId))) throw invalid('endsOn', 'Already over');
      const added = await app.db.orm.transaction(async (tx) => {
        if ((await liveEntryCounts(tx, teacherId, now())).timeOff >= TIME_OFF_MAX) throw invalid('startsOn', `At most ${TIME_OFF_MAX} entries of time off`);
        const row = await addTimeOff(tx, teacherId, { startsOn, endsOn, reason });
        await recordActivity(tx, { actor: actorOf(request), action: 'timeOff.create', subject: { type: 'teacher', id: teacherId }, before: null, after: { ...row } });
        return row;
      });
      return reply.code(201).send(added);
    },
  );

  r.delete(
    '/api/teach/time-off/:id',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: 'Removes one of the teacher\'s time-off entries (404 for anyone else\'s)',
        params: teachEntryParamsSchema,
        response: { 200: timeOffSchema, 404: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const teacherId = teacherOf(request);
      return app.db.orm.transaction(async (tx) => {
        const removed = await removeTimeOff(tx, teacherId, request.params.id);
        if (!removed) throw new HttpError(404, 'NOT_FOUND', 'No such time off');
        await recordActivity(tx, { actor: actorOf(request), action: 'timeOff.delete', subject: { type: 'teacher', id: teacherId }, before: { ...removed }, after: null });
        return removed;
      });
    },
  );

  r.post(
    '/api/teach/extra-hours',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: 'Adds hours on one date (whole hours in the teacher\'s zone), beyond the weekly ones',
        body: extraHoursInputSchema,
        response: { 201: extraHoursSchema, ...errors },
      },
    },
    async (request, reply) => {
      const teacherId = teacherOf(request);
      const { on, from, to } = request.body;
      if (on < (await todayOf(teacherId))) throw invalid('on', 'Already over');
      const added = await app.db.orm.transaction(async (tx) => {
        if ((await liveEntryCounts(tx, teacherId, now())).extraHours >= EXTRA_HOURS_MAX) throw invalid('on', `At most ${EXTRA_HOURS_MAX} entries of extra hours`);
        const row = await addExtraHours(tx, teacherId, { on, fromHour: from, toHour: to });
        await recordActivity(tx, { actor: actorOf(request), action: 'extraHours.create', subject: { type: 'teacher', id: teacherId }, before: null, after: extraView(row) });
        return row;
      });
      return reply.code(201).send(extraView(added));
    },
  );

  r.delete(
    '/api/teach/extra-hours/:id',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: 'Removes one of the teacher\'s extra hours (404 for anyone else\'s)',
        params: teachEntryParamsSchema,
        response: { 200: extraHoursSchema, 404: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const teacherId = teacherOf(request);
      return app.db.orm.transaction(async (tx) => {
        const removed = await removeExtraHours(tx, teacherId, request.params.id);
        if (!removed) throw new HttpError(404, 'NOT_FOUND', 'No such extra hours');
        await recordActivity(tx, { actor: actorOf(request), action: 'extraHours.delete', subject: { type: 'teacher', id: teacherId }, before: extraView(removed), after: null });
        return extraView(removed);
      });
    },
  );

  r.get(
    '/api/teach/preview',
    {
      preHandler,
      schema: {
        tags: ['teach'],
        summary: `The coming ${PREVIEW_DAYS} days' free starts as a learner in \`zone\` sees them`,
        description: 'The same starts GET /api/teachers/:id/slots answers (notice, horizon, time off, extra hours, closures, booked lessons), with wall-clock labels in `zone` and in the teacher\'s zone.',
        querystring: teachPreviewQuerySchema,
        response: { 200: teachPreviewSchema, ...errors },
      },
    },
    async (request, reply): Promise<TeachPreview> => {
      const teacherId = teacherOf(request);
      const at = now();
      const schoolNow = await school();
      const availability = await readTeacherAvailability(app.db.orm, teacherId, schoolNow.schedule, at);
      const window = bookableWindow(at, availability);
      const from = window.from;
      const to = Math.min(window.to, at + PREVIEW_DAYS * DAY_MS);
      const booked = to > from ? await bookings.bookedStarts(teacherId, new Date(from - LESSON_MS + 1), new Date(to), new Date(at)) : new Set<number>();
      const starts = to > from ? offeredStarts(availability, from, to, schoolNow.closed, booked) : [];
      const { zone } = request.query;
      const teacherZone = availability.schedule.timeZone;
      const hhmm = (instant: number, timeZone: string) => {
        const w = wallTime(instant, timeZone);
        return `${pad(w.hour)}:${pad(w.minute)}`;
      };
      reply.header('cache-control', 'private, no-store');
      return {
        zone,
        teacherTimeZone: teacherZone,
        from: new Date(from).toISOString(),
        to: new Date(Math.max(from, to)).toISOString(),
        slots: starts.map((start) => {
          const date = dayIn(start, zone);
          return {
            start: new Date(start).toISOString(),
            date,
            weekday: weekdayOf(date),
            time: hhmm(start, zone),
            teacherTime: `${weekdayOf(dayIn(start, teacherZone))} ${hhmm(start, teacherZone)}`,
          };
        }),
      };
    },
  );
}
