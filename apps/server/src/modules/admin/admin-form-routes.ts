import { schoolSettingsInputSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import { acceptFormPosts, formFields, refuseCrossSite } from '../../plugins/form-posts.js';
import type { PageRenderer } from '../../plugins/ssr.js';
import { saveSchoolSettings } from './admin-school-routes.js';
import type { SchoolSource } from './school-settings.js';

/*
 * The console's Settings form without JavaScript (decision 105): before the app has hydrated
 * (or without it) "Save" posts the form here. The same schema, write and activity row as
 * PUT /api/staff/school; taken: 303 back to the tab, which says it is saved; refused: the tab
 * rendered again with each field's message and what was typed. Admins only (a visitor is sent
 * to log in; anyone else gets 403), and only from this site's pages (form-posts.ts).
 */

export interface AdminFormOptions {
  school: SchoolSource;
  trustedOrigins: string[];
  /** the page renderer (undefined when the web app is not built: a refusal is then JSON) */
  renderPage?: PageRenderer;
}

const SETTINGS = '/admin/settings';

export async function adminFormRoutes(app: FastifyInstance, options: AdminFormOptions): Promise<void> {
  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));

    scope.post(SETTINGS, { schema: { hide: true } }, async (request, reply) => {
      if (!(await app.sessionUser(request))) {
        return reply.header('cache-control', 'no-store').redirect(`/login?next=${encodeURIComponent(SETTINGS)}`, 303);
      }
      await app.requireAdmin(request, reply);
      const posted = formFields(request);
      const typed = { timeZone: posted.timeZone ?? '', weeklyHours: posted.weeklyHours ?? '', contactEmail: (posted.contactEmail ?? '').trim() };
      const parsed = schoolSettingsInputSchema.safeParse({ ...typed, contactEmail: typed.contactEmail || null });
      if (parsed.success) {
        await saveSchoolSettings(app, options.school, request, parsed.data);
        return reply.header('cache-control', 'no-store').redirect(`${SETTINGS}?saved`, 303);
      }
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'form')] ??= issue.message;
      if (!options.renderPage) return reply.code(400).send({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request body', fields: errors } });
      return options.renderPage(request, reply, { url: SETTINGS, status: 400, echo: { form: 'school-settings', values: typed, errors } });
    });
  });
}
