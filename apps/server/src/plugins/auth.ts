import { isRole, type Role, type SessionUser } from '@learnlingo/contract';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.js';
import { authSchema } from '../db/schema.js';
import {
  type AccountDeletionOptions,
  deleteAccountData,
  enqueueResetPasswordMail,
  enqueueVerifyEmailMail,
  resetPasswordLink,
  verifyEmailLink,
} from './auth-account.js';
import { authPathMatcher, emptyAuthError, scheduleRateLimitPruning } from './auth-housekeeping.js';
import { passwordOptions, rehashAfterSignIn } from './auth-password.js';
import { adminPlugin } from './auth-roles.js';
import { formRulesHook } from './auth-rules.js';
import { HttpError, loggableError, sendError, UNAVAILABLE_RETRY_AFTER_S } from './errors.js';

/**
 * The header better-auth reads the client address from. The server overwrites it with
 * Fastify's `request.ip` on every request (trustProxy decides what that is), so neither a
 * client-sent X-Forwarded-For nor a client-sent copy of this header reaches the limiter.
 */
export const CLIENT_IP_HEADER = 'x-learnlingo-client-ip';

export interface AuthOptions {
  secret: string;
  publicOrigin: string;
  trustedOrigins: string[];
  /** sign-in/sign-up attempts per client address per 10 s */
  attemptsPer10s: number;
  /** what deleting an account needs: the outbox folder, the school's zone and address, the clock */
  accountDeletion: Omit<AccountDeletionOptions, 'log'>;
  /** the e-mail a reset link goes out in (default: the forgot-password one; `npm run admin` sends a welcome) */
  resetPasswordMail?: typeof enqueueResetPasswordMail;
}

export function createAuth(db: Database, options: AuthOptions, log: FastifyInstance['log']) {
  const secure = options.publicOrigin.startsWith('https://');
  // Mail never fails the request that causes it (the user can ask again); the log names the user by id.
  const queueQuietly = (what: string, userId: string, queued: Promise<void>) =>
    queued.catch((error: unknown) => log.error({ err: loggableError(error), userId }, `could not queue the ${what} e-mail`));
  return betterAuth({
    appName: 'LearnLingo',
    secret: options.secret,
    baseURL: options.publicOrigin,
    basePath: '/api/auth',
    trustedOrigins: options.trustedOrigins,
    database: drizzleAdapter(db.orm, { provider: 'pg', schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 48,
      autoSignIn: true,
      // better-auth's scheme, plus imported Firebase hashes until their first sign-in (auth-password.ts)
      password: passwordOptions,
      // Forgot password: a link to the web app's /reset-password page, valid 1 hour, used once
      // (better-auth consumes the token with the new password); every session of the user ends.
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, token }) =>
        queueQuietly('reset', user.id, (options.resetPasswordMail ?? enqueueResetPasswordMail)(db, user, resetPasswordLink(options.publicOrigin, token))),
    },
    // A confirmation link at sign-up; an unconfirmed user can still use everything.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      sendVerificationEmail: ({ user, token }) =>
        queueQuietly('confirmation', user.id, enqueueVerifyEmailMail(db, user, verifyEmailLink(options.publicOrigin, token))),
    },
    // Reset tokens are kept as their SHA-256 (identifier `reset-password:<token>` hashed): a copy of
    // the table (a backup, a leaked dump) holds no working link. The e-mailed token is looked up by
    // its hash; better-auth still finds a clear identifier stored before this (decision 104).
    // E-mail confirmation links are signed JWTs and store nothing.
    verification: { storeIdentifier: 'hashed' },
    user: {
      // POST /delete-user with the password (required by the form rules): see deleteAccountData
      deleteUser: { enabled: true, beforeDelete: (user) => deleteAccountData(db, user.id, { ...options.accountDeletion, log }) },
    },
    hooks: { before: formRulesHook, after: rehashAfterSignIn },
    // roles and deactivation (auth-roles.ts, decision 109)
    plugins: [adminPlugin()],
    rateLimit: {
      // better-auth turns it on only in production by default: on everywhere here.
      enabled: true,
      // In the database, so every server behind a load balancer shares the counters.
      storage: 'database',
      window: 60,
      max: 100,
      // sign-in/sign-up: better-auth's special rule is 3 attempts per 10 s per address;
      // AUTH_ATTEMPTS_PER_10S can raise it (the browser tests sign many users up from one address).
      customRules: {
        '/sign-in/email': { window: 10, max: options.attemptsPer10s },
        '/sign-up/email': { window: 10, max: options.attemptsPer10s },
        // Reading the session is not an attempt at anything: a classroom behind one address
        // restoring its sessions at once must never be limited into "signed out".
        '/get-session': false,
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // better-auth skips the origin check under NODE_ENV=test by default: never skip it.
      disableOriginCheck: false,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
    },
    telemetry: { enabled: false },
    onAPIError: {
      // An error that is not better-auth's own answer (a database failure…) goes on to Fastify's
      // error handler (a logged 500 in the API's shape) instead of better-call's console.error,
      // which prints the failed query with its parameters. The route logs the statuses.
      throw: true,
    },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const fn = level === 'error' || level === 'warn' ? log.warn.bind(log) : log.debug.bind(log);
        // Its arguments may be a failed query's error (with the query's parameters) or a user:
        // errors go through loggableError, anything else is named by its type only.
        const safe = args.map((arg) => (arg instanceof Error ? loggableError(arg) : typeof arg));
        fn({ source: 'better-auth', args: safe.length > 0 ? safe : undefined }, message);
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** A session's role as the app knows it (a value the database's check would never let in counts as a learner). */
const roleOf = (role: unknown): Role => (isRole(role) ? role : 'learner');

declare module 'fastify' {
  interface FastifyInstance {
    auth: Auth;
    /** The signed-in user of this request, or null (reads the session once per request). */
    sessionUser(request: FastifyRequest): Promise<SessionUser | null>;
    /** preHandler: 401 unless signed in */
    requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    sessionUserPromise?: Promise<SessionUser | null>;
    user?: SessionUser;
  }
}

/** The request's headers for better-auth, the client address in CLIENT_IP_HEADER (the form posts use it too). */
export function toHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined || key === CLIENT_IP_HEADER) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, String(value));
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

export function registerAuth(app: FastifyInstance, db: Database, options: AuthOptions): void {
  const auth = createAuth(db, options, app.log);
  app.decorate('auth', auth);

  app.decorate('sessionUser', (request: FastifyRequest) => {
    request.sessionUserPromise ??= auth.api
      .getSession({ headers: toHeaders(request) })
      .then((session) =>
        session ? { id: session.user.id, name: session.user.name, email: session.user.email, role: roleOf(session.user.role) } : null,
      );
    return request.sessionUserPromise;
  });

  app.decorate('requireUser', async (request: FastifyRequest) => {
    const user = await app.sessionUser(request);
    if (!user) throw new HttpError(401, 'UNAUTHORIZED', 'Sign in first');
    request.user = user;
  });

  // State-changing API requests that carry the session cookie must come from the app's own
  // pages (SameSite=Lax already keeps the cookie off most cross-site ones; this closes the
  // rest). The route is the one Fastify matched — not the raw request line, which may be in
  // absolute form (`PUT http://host/api/…`). A browser names the page's origin in `Origin`,
  // or at least says `Sec-Fetch-Site`; a request with neither is not from a browser, so no
  // other site can have made it carry the cookie.
  const trusted = new Set(options.trustedOrigins);
  app.addHook('onRequest', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith('/api/') || !request.headers.cookie) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    const sameOrigin = origin !== undefined ? trusted.has(origin) : fetchSite === undefined || fetchSite === 'same-origin';
    if (!sameOrigin) throw new HttpError(403, 'FORBIDDEN', 'Cross-site request refused');
  });

  const isAuthPath = authPathMatcher(auth.api);
  scheduleRateLimitPruning(app, db);

  // better-auth's routes, bridged per its Fastify integration: a Fetch Request in, the
  // Fetch Response (status, every header, each Set-Cookie) out.
  app.register(async (scope) => {
    // Keep the raw JSON text (better-auth parses it again); accept an empty body.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });

    scope.route({
      method: ['GET', 'POST'],
      url: '/api/auth/*',
      schema: { hide: true },
      handler: async (request, reply) => {
        const url = new URL(request.url, options.publicOrigin);
        if (!isAuthPath(url.pathname.slice('/api/auth'.length))) {
          return sendError(reply, 404, 'NOT_FOUND', 'No such auth endpoint');
        }
        // The forms' rules are checked by better-auth's before-hook (auth-rules.ts) on the endpoint
        // it resolved, whatever the URL's spelling.
        const raw = typeof request.body === 'string' ? request.body : '';

        const response = await auth.handler(
          new Request(url, {
            method: request.method,
            headers: toHeaders(request),
            body: request.method === 'GET' || raw === '' ? undefined : raw,
          }),
        );

        if (response.status >= 500 && !(await db.ping())) {
          // better-auth answers a failed query with a 500 of its own, before the error handler
          // could tell an outage from a bug: the database not answering is the outage's 503.
          request.log.warn({ status: response.status }, 'auth request failed: database unavailable, 503');
          reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
          return sendError(reply, 503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable; please try again in a moment');
        }
        if (response.status >= 500) request.log.error({ status: response.status }, 'auth request failed');
        else if (response.status >= 400) request.log.debug({ status: response.status }, 'auth request refused');
        reply.code(response.status);
        response.headers.forEach((value, key) => {
          if (key !== 'set-cookie' && key !== 'content-length' && key !== 'content-encoding') reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header('set-cookie', cookies);

        const text = await response.text();
        if (response.status === 429) {
          // better-auth names the wait in its own X-Retry-After; the standard header says it too
          const wait = response.headers.get('x-retry-after');
          if (wait !== null && /^\d{1,6}$/.test(wait)) reply.header('retry-after', wait);
          // better-auth answers `{message}`; the contract names the code the UI maps.
          return reply
            .type('application/json; charset=utf-8')
            .send({ code: 'RATE_LIMITED', message: 'Too many attempts. Please wait a minute and try again.' });
        }
        if (text === '' && response.status >= 400) {
          return reply.type('application/json; charset=utf-8').send(emptyAuthError(response.status));
        }
        return reply.send(text === '' ? null : text);
      },
    });
  });
}
