import { apiErrorSchema, calendarFeedSchema } from '@learnlingo/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../plugins/errors.js';
import { calendarFeeds, type FeedOwner } from './calendar-feed.js';

export interface CalendarRoutesOptions {
  publicOrigin: string;
  /** the server's secret: feed tokens are HMACs under it */
  secret: string;
  now: () => number;
}

const notFound = () => new HttpError(404, 'NOT_FOUND', 'No such calendar');

/**
 * GET /calendar/<token>.ics (the feed a calendar app polls; no session) and, under the owner's
 * session, GET/POST /api/teach/calendar-feed (teachers) and /api/calendar-feed (learners): the
 * URL, and a new one that replaces it (decision 118).
 */
export async function calendarRoutes(app: FastifyInstance, options: CalendarRoutesOptions): Promise<void> {
  const feeds = calendarFeeds(options.secret, options.publicOrigin);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = { 401: apiErrorSchema, 403: apiErrorSchema };

  r.get(
    '/calendar/:file',
    {
      schema: {
        tags: ['calendar'],
        summary: "A private calendar feed (text/calendar): the owner's upcoming and recent lessons, cancelled ones STATUS:CANCELLED",
        description: 'An unknown or renewed token answers 404.',
        params: z.object({ file: z.string().max(100) }),
        response: { 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const token = /^(.+)\.ics$/.exec(request.params.file)?.[1];
      const owner = token ? await feeds.ownerOf(app.db.orm, token) : null;
      if (!owner) throw notFound();
      const body = await feeds.calendar(app.db.orm, owner, options.now());
      // a calendar, not JSON: past the response schemas (there is none for 200)
      return (reply as FastifyReply)
        .header('cache-control', 'private, no-store')
        .header('x-robots-tag', 'noindex')
        .header('content-disposition', 'inline; filename="learnlingo.ics"')
        .type('text/calendar; charset=utf-8')
        .send(body);
    },
  );

  const routes = (path: string, preHandler: typeof app.requireUser, owner: (request: { user?: { id: string } | null; teacherId?: string }) => FeedOwner, who: string) => {
    r.get(
      path,
      { preHandler, schema: { tags: ['calendar'], summary: `The ${who}'s private calendar feed URL (null until asked for)`, response: { 200: calendarFeedSchema, ...errors } } },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return { url: await feeds.url(app.db.orm, owner(request)) };
      },
    );
    r.post(
      `${path}/renew`,
      {
        preHandler,
        schema: { tags: ['calendar'], summary: `A new private calendar feed URL for the ${who}; the old one answers 404 from now on`, response: { 200: calendarFeedSchema, ...errors } },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return { url: await feeds.renew(app.db.orm, owner(request)) };
      },
    );
  };
  routes('/api/teach/calendar-feed', app.requireTeacher, (request) => ({ teacherId: request.teacherId! }), 'teacher');
  routes('/api/calendar-feed', app.requireUser, (request) => ({ userId: request.user!.id }), 'signed-in learner');
}
