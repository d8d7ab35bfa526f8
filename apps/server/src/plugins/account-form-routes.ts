import { accountMessages, toastMessages } from '@learnlingo/contract';
import type { FormEcho } from '@learnlingo/contract/plain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setFlash, type Flash } from './flash.js';
import { acceptFormPosts, authCaller, formFields, passRetryAfter, refuseCrossSite, safeNext } from './form-posts.js';
import type { PageRenderer } from './ssr.js';

/*
 * The account's forms without JavaScript (issue 28, decision 105): Logout, a new password
 * from an e-mailed link, and /account's name and password. Each page's form posts here; the
 * post goes through better-auth's own handler in process (its rules, messages, origin check,
 * rate limit), as the app's requests do. Taken: back to the page with its toast as a flash
 * (a reset link: the Log in page, saying the password is changed). Refused: the page
 * again with each field's message, what was typed never including a password.
 */

export interface AccountFormOptions {
  publicOrigin: string;
  trustedOrigins: string[];
  /** the page renderer (undefined when the web app is not built: refusals are then JSON) */
  renderPage?: PageRenderer;
}

type Echo = Omit<FormEcho, 'form' | 'values'>;

/** A reset link's token as the page takes it: capped before the pattern (account-page.tsx's rule). */
const TOKEN_MAX = 256;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;

/** better-auth's answer to a refused post: its field messages, or one message for the form. */
async function refusal(response: Response, wrongPasswordField?: string): Promise<Echo> {
  const body = (await response.json().catch(() => ({}))) as { fields?: unknown; code?: unknown };
  if (response.status === 400 && body.fields && typeof body.fields === 'object') {
    const errors: Record<string, string> = {};
    for (const [key, value] of Object.entries(body.fields)) if (typeof value === 'string') errors[key] = value;
    return { errors };
  }
  if (body.code === 'INVALID_PASSWORD' && wrongPasswordField) return { errors: { [wrongPasswordField]: accountMessages.wrongPassword } };
  if (body.code === 'INVALID_TOKEN') return { errors: {}, message: accountMessages.resetLinkInvalid };
  if (response.status === 429) return { errors: {}, message: toastMessages.tooManyAttempts };
  return { errors: {}, message: 'This request was refused. Please reload the page and try again.' };
}

/** The path of the page a form was posted from (its `Referer`, sent whole to its own origin), when it is this site's. */
function samePagePath(referer: string | undefined, publicOrigin: string): string | undefined {
  if (!referer || referer.length > 2000 || !URL.canParse(referer)) return undefined;
  const url = new URL(referer);
  return url.origin === new URL(publicOrigin).origin ? url.pathname + url.search : undefined;
}

export async function accountFormRoutes(app: FastifyInstance, options: AccountFormOptions): Promise<void> {
  const callAuth = authCaller(app, options.publicOrigin);

  /** Taken: the session's new cookies (if any), the toast for the next page, 303 there. */
  const done = (request: FastifyRequest, reply: FastifyReply, response: Response, flash: Flash | undefined, next: string) => {
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (flash) setFlash(request, reply, flash);
    return reply.header('cache-control', 'no-store').redirect(next, 303);
  };

  /** The page at `url` again, with the form's echo (or JSON when there are no pages). */
  const render = (request: FastifyRequest, reply: FastifyReply, url: string, status: number, echo: FormEcho) => {
    if (!options.renderPage) {
      return reply.code(status).send({ error: { code: 'VALIDATION_ERROR', message: echo.message ?? 'Invalid request body', fields: echo.errors } });
    }
    return options.renderPage(request, reply, { url, status, echo });
  };


  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));

    // Logout: the session ends (better-auth's sign-out) and the person stays where they were
    // (a private page then sends a visitor home, as it does anyway)
    scope.post('/logout', { schema: { hide: true } }, async (request, reply) => {
      const next = safeNext(formFields(request).next ?? samePagePath(request.headers.referer, options.publicOrigin)) ?? '/';
      const response = await callAuth(request, '/sign-out', {});
      return done(request, reply, response, undefined, next);
    });

    // A new password from the e-mailed link: the token rides in the page's URL, as the link gave it
    scope.post('/reset-password', { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const token = typeof query.token === 'string' && query.token.length <= TOKEN_MAX && TOKEN_PATTERN.test(query.token) ? query.token : null;
      if (token === null) return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such reset link' } });
      const url = `/reset-password?${new URLSearchParams({ token }).toString()}`;
      const posted = formFields(request);
      const response = await callAuth(request, '/reset-password', { newPassword: posted.newPassword ?? '', token });
      // taken: the Log in page, which says so (the link is spent; the app opens the Log in modal instead)
      if (response.status === 200) return reply.header('cache-control', 'no-store').redirect('/login?reset=done', 303);
      passRetryAfter(reply, response);
      const echo = await refusal(response);
      // a spent or expired link: the page says so (its own check answers 404)
      return render(request, reply, url, response.status === 429 ? 429 : 400, { form: 'reset-password', values: {}, ...echo });
    });

    // /account's name and password: signed in only (a visitor is sent to log in and come back)
    const accountForm =
      (form: 'account-name' | 'account-password', endpoint: string, flash: Flash) => async (request: FastifyRequest, reply: FastifyReply) => {
        const posted = formFields(request);
        const body =
          form === 'account-name'
            ? { name: posted.name ?? '' }
            : { currentPassword: posted.currentPassword ?? '', newPassword: posted.newPassword ?? '', revokeOtherSessions: true };
        const response = await callAuth(request, endpoint, body);
        if (response.status === 401) return reply.header('cache-control', 'no-store').redirect('/login?next=%2Faccount', 303);
        if (response.status === 200) return done(request, reply, response, flash, '/account');
        passRetryAfter(reply, response);
        const echo = await refusal(response, 'currentPassword');
        const values: Record<string, string> = form === 'account-name' && typeof posted.name === 'string' ? { name: posted.name } : {};
        return render(request, reply, '/account', response.status === 429 ? 429 : 400, { form, values, ...echo });
      };
    scope.post('/account/name', { schema: { hide: true } }, accountForm('account-name', '/update-user', 'nameChanged'));
    scope.post('/account/password', { schema: { hide: true } }, accountForm('account-password', '/change-password', 'passwordChanged'));
  });
}
