import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Env } from './config/env.js';
import type { Database } from './db/client.js';
import { adminRoutes } from './modules/admin/admin-routes.js';
import { createSchoolSource } from './modules/admin/school-settings.js';
import { avatarRoutes, type AvatarRoutesOptions } from './modules/avatars/avatar-routes.js';
import { photoRoutes } from './modules/avatars/photo-routes.js';
import { bookingFormRoutes } from './modules/booking/booking-form-routes.js';
import { bookingRoutes } from './modules/booking/booking-routes.js';
import { reviewRoutes } from './modules/reviews/review-routes.js';
import { calendarRoutes } from './modules/calendar/calendar-routes.js';
import { favoriteFormRoutes } from './modules/favorites/favorite-form-routes.js';
import { favoritesRoutes } from './modules/favorites/favorites-routes.js';
import { healthRoutes } from './modules/health/health-routes.js';
import { seoRoutes, type SeoRoutesOptions } from './modules/seo/seo-routes.js';
import { teachersRoutes } from './modules/teachers/teachers-routes.js';
import { teachProfileRoutes } from './modules/teach/teach-profile-routes.js';
import { teachRoutes } from './modules/teach/teach-routes.js';
import { teachLessonsRoutes } from './modules/teach/teach-lessons-routes.js';
import { teachLessonActionRoutes } from './modules/teach/teach-lesson-actions.js';
import { registerAuth } from './plugins/auth.js';
import { accountFormRoutes } from './plugins/account-form-routes.js';
import { authFormRoutes } from './plugins/auth-form-routes.js';
import { registerDb } from './plugins/db.js';
import { registerDocs } from './plugins/docs.js';
import { limitConnections } from './plugins/connections.js';
import { frameworkErrorOptions, loggerOptions, registerErrorHandling, registerShutdownAnswer } from './plugins/errors.js';
import { outboxDirOf, registerMailWorker, type MailWorkerSettings } from './plugins/mail.js';
import { registerSecurityHeaders, securityHeaderList } from './plugins/security-headers.js';
import { createPageRenderer, limitConcurrency, RENDER_QUEUE_MAX, type RenderTurns } from './plugins/ssr.js';
import { registerStaticWeb } from './plugins/static-web.js';
import { activityRoutes } from './staff/activity-routes.js';
import { registerStaffGuards } from './staff/guards.js';
import { peopleRoutes } from './staff/people-routes.js';
import { invitationRoutes } from './staff/invitation-routes.js';

export const BODY_LIMIT = 64 * 1024;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export interface BuildAppOptions {
  env: Env & { authSecret: string };
  db: Database;
  /** how often catalogue caches look at the catalogue version (default 1000 ms) */
  catalogueCacheCheckMs?: number;
  /** how often the catalogue's change feed is read (default 200 ms, decision 107) */
  catalogueFeedPollMs?: number;
  /** the clock for lesson times (ms since the epoch; default Date.now): tests move it */
  now?: () => number;
  /** this process's mail worker: its timings, or false for none (tests read the outbox table) */
  mailWorker?: MailWorkerSettings | false;
  /** where the log goes (tests read it); default stdout */
  logStream?: NodeJS.WritableStream;
  /** the sitemaps' file size and read size (defaults: the protocol's 50,000 URLs, 5000 rows): tests make them small */
  sitemap?: Pick<SeoRoutesOptions, 'urlsPerFile' | 'pageRows'>;
  /** teachers' pictures: cache size, fetch limits (tests make them small) */
  avatars?: AvatarRoutesOptions;
  /** whose turn it is to render a page (default: SSR_CONCURRENCY at once, RENDER_QUEUE_MAX waiting); tests hold turns */
  renderTurns?: RenderTurns;
}

/** A booking's private link (/bookings/:token, /api/bookings/token/:token…) never reaches a log. */
const PRIVATE_LINK = /(\/bookings\/(?:token\/)?)[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;
/** Nor does an e-mailed reset or confirmation token (/reset-password?token=…, /api/auth/reset-password/…, verify-email?token=…). */
const EMAILED_TOKEN = /(\/reset-password\/|[?&]token=)[^?&#/\s]+/g;
export const redactUrl = (url: string) => url.replace(PRIVATE_LINK, '$1[redacted]').replace(EMAILED_TOKEN, '$1[redacted]');

/** pino's request fields (method, URL, host, address), the URL with its private link redacted. */
const requestForLog = (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
  method: req.method,
  url: redactUrl(req.url),
  host: req.hostname,
  remoteAddress: req.ip,
});

/**
 * Assembles the app: plugins for the cross-cutting concerns, then the route modules.
 * It never listens (server.ts does; tests use inject()) and never closes the database
 * (whoever opened it does).
 */
export async function buildApp({
  env,
  db,
  catalogueCacheCheckMs,
  catalogueFeedPollMs,
  mailWorker = {},
  logStream,
  now = Date.now,
  sitemap,
  avatars,
  renderTurns = limitConcurrency(env.ssrConcurrency, RENDER_QUEUE_MAX),
}: BuildAppOptions): Promise<FastifyInstance> {
  const https = env.publicOrigin.startsWith('https://');
  const logger = loggerOptions(env.logLevel, logStream);
  const app = Fastify({
    // request logs name the URL without a booking's private link
    logger: logger && typeof logger === 'object' ? { ...logger, serializers: { req: requestForLog } } : logger,
    ...frameworkErrorOptions(securityHeaderList({ https })),
    // explicit: false unless TRUST_PROXY says which proxies may set X-Forwarded-For
    trustProxy: typeof env.trustProxy === 'number' ? trustHops(env.trustProxy) : env.trustProxy,
    bodyLimit: BODY_LIMIT,
    // a teacher id is at most 64 characters; anything near this limit is not a real URL
    routerOptions: { maxParamLength: 200 },
    // While closing, new requests get a 503 — ours (registerShutdownAnswer), in the app's
    // shape and with the security headers, not Fastify's bare one.
    return503OnClosing: false,
    // A request's head and body must arrive within REQUEST_TIMEOUT_MS (408 and the socket
    // closed): a client dribbling one byte every few seconds no longer keeps it for ever.
    // Node looks for overdue requests every connectionsCheckingInterval.
    requestTimeout: env.requestTimeoutMs,
    http: {
      requestTimeout: env.requestTimeoutMs,
      headersTimeout: Math.min(60_000, env.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(5_000, Math.max(250, Math.floor(env.requestTimeoutMs / 4))),
    },
    forceCloseConnections: 'idle',
  });
  limitConnections(app, env.maxConnections);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The API speaks JSON only: anything else is 415.
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  registerDb(app, db);
  if (mailWorker !== false) registerMailWorker(app, db, env, { now, ...mailWorker });
  registerSecurityHeaders(app, { https });
  registerShutdownAnswer(app);
  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });
  await registerDocs(app, { publicOrigin: env.publicOrigin });

  // the school's settings, the console's over the environment's: read per request, the pages'
  // contact e-mail at most once per catalogue check per server (decision 119)
  const school = createSchoolSource(
    db.orm,
    { schedule: { timeZone: env.schoolTimeZone, hours: env.schoolHours }, email: env.schoolEmail },
    now,
    { pageMaxAgeMs: catalogueCacheCheckMs ?? 1000 },
  );
  registerAuth(app, db, {
    secret: env.authSecret,
    publicOrigin: env.publicOrigin,
    trustedOrigins: env.trustedOrigins,
    attemptsPer10s: env.authAttemptsPer10s,
    accountDeletion: {
      outboxDir: outboxDirOf(env),
      school: () => school.settings(),
      now,
    },
  });
  registerStaffGuards(app);
  await healthRoutes(app);
  await teachersRoutes(app, {
    cursorSecret: env.authSecret,
    cacheCheckMs: catalogueCacheCheckMs,
    cacheEntries: env.catalogueCacheEntries,
    cardChars: env.catalogueCardMb * 2 ** 20,
    feedPollMs: catalogueFeedPollMs,
  });
  await seoRoutes(app, { publicOrigin: env.publicOrigin, ...sitemap });
  await avatarRoutes(app, avatars);
  await photoRoutes(app);
  await adminRoutes(app, { school, now });
  await favoritesRoutes(app);
  await activityRoutes(app);
  await peopleRoutes(app);
  await invitationRoutes(app, { publicOrigin: env.publicOrigin, now });
  const booking = await bookingRoutes(app, {
    schoolSchedule: { timeZone: env.schoolTimeZone, hours: env.schoolHours },
    publicOrigin: env.publicOrigin,
    schoolEmail: env.schoolEmail,
    now,
    limits: { perAddressPerHour: env.bookingsPerAddressPerHour, perEmailPerHour: env.bookingsPerEmailPerHour, keySecret: env.authSecret },
    holdMs: env.bookingHoldMinutes * 60_000,
    school: () => school.read(),
    schoolSettings: (tx) => school.settings(tx),
  });
  await reviewRoutes(app, { now, trustedOrigins: env.trustedOrigins });
  // private calendar feeds of teachers and learners (issue 25, decision 118)
  await calendarRoutes(app, { publicOrigin: env.publicOrigin, secret: env.authSecret, now });
  // a teacher's own hours, time off and extra hours (issue 25)
  await teachRoutes(app, { school: () => school.read(), now });
  // a teacher's lessons: requests, upcoming, past (issue 25, decision 122)
  await teachLessonsRoutes(app, { now, cursorSecret: env.authSecret, schoolTimeZone: env.schoolTimeZone });
  // the teacher accepts, declines, cancels (issue 25, decision 117)
  await teachLessonActionRoutes(app, {
    schoolSchedule: { timeZone: env.schoolTimeZone, hours: env.schoolHours },
    schoolEmail: env.schoolEmail,
    school: (tx) => school.settings(tx),
    publicOrigin: env.publicOrigin,
    now,
  });
  await teachProfileRoutes(app);

  const renderPage = await createPageRenderer(app, {
    webDist: env.webDist,
    publicOrigin: env.publicOrigin,
    contactEmail: () => school.contactEmail(),
    htmlCacheMax: env.htmlCacheMax,
    renderTurns,
    cacheCheckMs: catalogueCacheCheckMs ?? 1000,
    devWebRoot: env.webDevRoot,
  });
  // the pages' own form posts (Log in, Registration, a heart, a booking) without JavaScript: decision 105
  await authFormRoutes(app, { publicOrigin: env.publicOrigin, trustedOrigins: env.trustedOrigins, renderPage });
  await accountFormRoutes(app, { publicOrigin: env.publicOrigin, trustedOrigins: env.trustedOrigins, renderPage });
  await favoriteFormRoutes(app, { trustedOrigins: env.trustedOrigins });
  await bookingFormRoutes(app, { actions: booking, trustedOrigins: env.trustedOrigins, renderPage });
  await registerStaticWeb(app, { webDist: env.webDist, sourceMaps: env.sourceMaps, renderPage });
  return app;
}
