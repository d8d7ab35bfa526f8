import {
  adminTeacherCreateSchema,
  adminTeacherPageSchema,
  adminTeacherPatchSchema,
  adminTeacherQuerySchema,
  adminTeacherSchema,
  apiErrorSchema,
  formatWeeklyHours,
  teacherIdSchema,
  teacherStatusChangeSchema,
} from '@learnlingo/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CatalogueWriteError,
  createConsoleTeacher,
  editConsoleTeacher,
  listConsoleTeachers,
  newConsoleTeacherId,
  readConsoleTeacher,
  setTeacherStatus,
  type ConsoleAudit,
  type ConsoleTeacher,
  type TeacherHours,
} from '../../catalogue/index.js';
import type { Database, Db } from '../../db/client.js';
import { HttpError } from '../../plugins/errors.js';
import { recordActivity } from '../../staff/activity.js';
import { actorOf } from './actor.js';
import { photoUploadRoute, storePhoto } from '../avatars/photo-routes.js';

/*
 * The console's Teachers (issue 24, decision 111), admins only: a searchable, paged table;
 * one teacher; add (a draft unless published at once); edit every field a card shows and the
 * teacher's hours; status changes with a reason; photo uploads (decision 110). Every write is
 * one single-teacher write (decision 107) with its activity row in the same transaction.
 * A teacher's own profile (/api/teach/profile) edits through `editTeacher` too.
 */

const idParams = z.object({ id: teacherIdSchema });
const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

/** The teacher as the API shows it (hours in the console's text syntax). */
export function teacherView(t: ConsoleTeacher) {
  return { ...t, weeklyHours: t.weeklyHours ? formatWeeklyHours(t.weeklyHours) : null };
}

/** What the activity log keeps of a teacher: the fields the console shows. */
const logged = (t: ConsoleTeacher | null) => (t ? (teacherView(t) as unknown as Record<string, unknown>) : null);

/** The fields that differ, before and after (the activity log's before → after). */
function changed(before: ConsoleTeacher | null, after: ConsoleTeacher) {
  const b = logged(before);
  const a = logged(after)!;
  if (!b) return { before: null, after: a };
  const keys = Object.keys(a).filter((k) => k !== 'lessonsBooked' && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return { before: Object.fromEntries(keys.map((k) => [k, b[k]])), after: Object.fromEntries(keys.map((k) => [k, a[k]])) };
}

/** Records `action` (before → after) in the write's own transaction, after `also` (if any) ran in it. */
function audit(request: FastifyRequest, action: string, also?: (tx: Db) => Promise<void>): ConsoleAudit {
  return async (tx, change) => {
    await also?.(tx);
    await recordActivity(tx, { actor: actorOf(request), action, subject: { type: 'teacher', id: change.after.id }, ...changed(change.before, change.after) });
  };
}

/** A write's refusal as the API's answer: 400 naming the field, 404. */
function asHttp(error: unknown): never {
  if (error instanceof CatalogueWriteError) {
    if (error.code === 'NOT_FOUND') throw new HttpError(404, 'NOT_FOUND', error.message);
    const field = error.field ?? 'input';
    throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { [field]: error.message.replace(/^[^:]*: /, '') });
  }
  throw error;
}

/** Hours from a form: both (the teacher's own) or neither (the school's); one alone is a 400 naming the other. */
function hoursOf(body: { timeZone?: string | null; weeklyHours?: number[][][] | null }): TeacherHours | null | undefined {
  if (body.timeZone === undefined && body.weeklyHours === undefined) return undefined;
  const { timeZone, weeklyHours } = body;
  if (timeZone && weeklyHours) return { timeZone, weeklyHours };
  if (!timeZone && !weeklyHours) return null;
  const missing = timeZone ? 'weeklyHours' : 'timeZone';
  throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', {
    [missing]: missing === 'timeZone' ? 'Give the time zone of these hours' : "Give the teacher's weekly hours for this time zone",
  });
}

/**
 * The console's edit of one teacher, shared by the console (`teacher.update`) and a teacher's
 * own profile (`profile.update`): the card's fields (and hours when given) in one
 * single-teacher write (decision 107: list, search, counts and card follow), its activity row
 * (the fields that changed, before → after) and `also` in the same transaction. Answers the
 * teacher as the API shows it; 400 naming the field, 404.
 */
export async function editTeacher(
  db: Database,
  request: FastifyRequest,
  id: string,
  body: z.output<typeof adminTeacherPatchSchema>,
  action: string,
  also?: (tx: Db) => Promise<void>,
): Promise<z.output<typeof adminTeacherSchema>> {
  const { timeZone, weeklyHours, ...card } = body;
  const hours = hoursOf({ timeZone, weeklyHours });
  const edited = await editConsoleTeacher(db, id, card, { hours, audit: audit(request, action, also) }).catch(asHttp);
  return teacherView(edited);
}

export async function adminTeachersRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const preHandler = app.requireAdmin;

  r.get(
    '/api/staff/teachers',
    { preHandler, schema: { tags: ['staff'], summary: 'Teachers, searched and paged (admins)', querystring: adminTeacherQuerySchema, response: { 200: adminTeacherPageSchema, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return listConsoleTeachers(app.db, request.query);
    },
  );

  r.get(
    '/api/staff/teachers/:id',
    { preHandler, schema: { tags: ['staff'], summary: 'One teacher as the console edits it (admins)', params: idParams, response: { 200: adminTeacherSchema, ...errors } } },
    async (request, reply) => {
      const found = await readConsoleTeacher(app.db.orm, request.params.id);
      if (!found) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${request.params.id}`);
      reply.header('cache-control', 'private, no-store');
      return teacherView(found);
    },
  );

  r.post(
    '/api/staff/teachers',
    { preHandler, schema: { tags: ['staff'], summary: 'Adds a teacher: a draft unless published (admins)', body: adminTeacherCreateSchema, response: { 201: adminTeacherSchema, ...errors } } },
    async (request, reply) => {
      const { status, timeZone, weeklyHours, ...card } = request.body;
      const hours = hoursOf({ timeZone, weeklyHours }) ?? null;
      const id = newConsoleTeacherId();
      const created = await createConsoleTeacher(
        app.db,
        { ...card, id, rating: 0, lessons_done: 0, reviews: [] },
        { status, hours, audit: audit(request, 'teacher.create') },
      ).catch(asHttp);
      return reply.code(201).send(teacherView(created));
    },
  );

  r.patch(
    '/api/staff/teachers/:id',
    { preHandler, schema: { tags: ['staff'], summary: "Edits a teacher's card and hours (admins)", params: idParams, body: adminTeacherPatchSchema, response: { 200: adminTeacherSchema, ...errors } } },
    async (request) => editTeacher(app.db, request, request.params.id, request.body, 'teacher.update'),
  );

  r.post(
    '/api/staff/teachers/:id/status',
    {
      preHandler,
      schema: { tags: ['staff'], summary: 'Publishes, hides (with a reason) or keeps a teacher a draft (admins)', params: idParams, body: teacherStatusChangeSchema, response: { 200: adminTeacherSchema, ...errors } },
    },
    async (request) => {
      const { status, reason } = request.body;
      const after = await setTeacherStatus(app.db, request.params.id, status, reason ?? null, audit(request, `teacher.${status === 'published' ? 'publish' : status === 'hidden' ? 'hide' : 'draft'}`)).catch(asHttp);
      return teacherView(after);
    },
  );

  // Photos of any teacher: stored as they come; a form's save then names one (decision 110)
  await photoUploadRoute(app, {
    url: '/api/staff/photos',
    preHandler,
    tag: 'staff',
    summary: 'Uploads a teacher photo: JPEG, PNG or WebP, at most 5 MB (admins)',
    store: (request, variants) =>
      app.db.orm.transaction(async (tx) => {
        await storePhoto(tx, variants);
        await recordActivity(tx, { actor: actorOf(request), action: 'photo.upload', subject: { type: 'photo', id: variants[0]!.name }, after: { sizes: variants.map((v) => v.name) } });
      }),
  });
}
