import { schoolSettingsInputSchema, teacherIdSchema, teacherStatusChangeSchema } from '@learnlingo/contract';
import type { FormEcho } from '@learnlingo/contract/plain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { HttpError } from '../../plugins/errors.js';
import { acceptFormPosts, formFields, refuseCrossSite } from '../../plugins/form-posts.js';
import type { PageRenderer } from '../../plugins/ssr.js';
import { saveSchoolSettings } from './admin-school-routes.js';
import { changeTeacherStatus } from './admin-teachers-routes.js';
import type { SchoolSource } from './school-settings.js';

/*
 * The console's forms without JavaScript (decision 105): before the app has hydrated (or
 * without it) the Settings form's "Save" and a teacher's "Change status" (hide with a reason)
 * post here. The same schema, write and activity row as their API routes; taken: 303 back to
 * the page, which says so; refused: the page rendered again with each field's message and what
 * was typed. Admins only (a visitor is sent to log in; anyone else gets 403), and only from this
 * site's pages (form-posts.ts).
 */

export interface AdminFormOptions {
  school: SchoolSource;
  trustedOrigins: string[];
  /** the page renderer (undefined when the web app is not built: a refusal is then JSON) */
  renderPage?: PageRenderer;
}

const SETTINGS = '/admin/settings';

/** Each issue's message by its field (the first per field), as the API's 400 names them. */
const fieldsOf = (error: z.ZodError): Record<string, string> => {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
  return errors;
};

export async function adminFormRoutes(app: FastifyInstance, options: AdminFormOptions): Promise<void> {
  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));

    /** Signed in as an admin (request.user set), or the answer already given: a visitor goes to log in, come back to `page`. */
    const asAdmin = async (request: FastifyRequest, reply: FastifyReply, page: string): Promise<boolean> => {
      if (!(await app.sessionUser(request))) {
        await reply.header('cache-control', 'no-store').redirect(`/login?next=${encodeURIComponent(page)}`, 303);
        return false;
      }
      await app.requireAdmin(request, reply);
      return true;
    };
    /** The page at `url` again with the refused post (or JSON without the built web app). */
    const refused = (request: FastifyRequest, reply: FastifyReply, url: string, echo: FormEcho) =>
      options.renderPage
        ? options.renderPage(request, reply, { url, status: 400, echo })
        : reply.code(400).send({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request body', fields: echo.errors } });

    // a teacher's status (publish, hide with a reason) from their edit page
    scope.post('/admin/teachers/:id/status', { schema: { hide: true } }, async (request, reply) => {
      const id = teacherIdSchema.safeParse((request.params as { id?: string }).id);
      if (!id.success) throw new HttpError(404, 'NOT_FOUND', 'No such teacher');
      const page = `/admin/teachers/${id.data}`;
      if (!(await asAdmin(request, reply, page))) return reply;
      const posted = formFields(request);
      const typed = { status: posted.status ?? '', reason: (posted.reason ?? '').trim() };
      const change = teacherStatusChangeSchema.safeParse({ status: typed.status, ...(typed.reason ? { reason: typed.reason } : {}) });
      if (!change.success) return refused(request, reply, page, { form: 'teacher-status', values: typed, errors: fieldsOf(change.error) });
      try {
        await changeTeacherStatus(app, request, id.data, change.data);
      } catch (error) {
        if (error instanceof HttpError && error.statusCode === 400 && error.fields) return refused(request, reply, page, { form: 'teacher-status', values: typed, errors: error.fields });
        throw error;
      }
      return reply.header('cache-control', 'no-store').redirect(`${page}?status=changed`, 303);
    });

    scope.post(SETTINGS, { schema: { hide: true } }, async (request, reply) => {
      if (!(await asAdmin(request, reply, SETTINGS))) return reply;
      const posted = formFields(request);
      const typed = {
        timeZone: posted.timeZone ?? '',
        weeklyHours: posted.weeklyHours ?? '',
        contactEmail: (posted.contactEmail ?? '').trim(),
        cancelCutoffHours: (posted.cancelCutoffHours ?? '').trim(),
      };
      // the cut-off (decision 117): left out, unchanged; anything but digits is the schema's to name
      const cutoff = typed.cancelCutoffHours;
      const parsed = schoolSettingsInputSchema.safeParse({
        timeZone: typed.timeZone,
        weeklyHours: typed.weeklyHours,
        contactEmail: typed.contactEmail || null,
        ...(cutoff ? { cancelCutoffHours: /^\d{1,4}$/.test(cutoff) ? Number(cutoff) : cutoff } : {}),
      });
      if (parsed.success) {
        await saveSchoolSettings(app, options.school, request, parsed.data);
        return reply.header('cache-control', 'no-store').redirect(`${SETTINGS}?saved`, 303);
      }
      return refused(request, reply, SETTINGS, { form: 'school-settings', values: typed, errors: fieldsOf(parsed.error) });
    });
  });
}
