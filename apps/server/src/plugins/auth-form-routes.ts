import { accountMessages, favoriteParamsSchema, toastMessages } from '@learnlingo/contract';
import type { FormEcho } from '@learnlingo/contract/plain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createFavoritesRepository } from '../modules/favorites/favorites-repository.js';
import { setFlash } from './flash.js';
import { DEACTIVATED_MESSAGE } from './auth-roles.js';
import { acceptFormPosts, authCaller, formFields, passRetryAfter, refuseCrossSite, safeNext } from './form-posts.js';
import type { PageRenderer } from './ssr.js';

/*
 * Log in and Registration without JavaScript (decision 105): the server-rendered /login and
 * /register pages post here. The post goes through better-auth's own handler, as the modals'
 * requests do — the same form rules and messages (auth-rules.ts), origin check and sign-in
 * rate limit — then returns the person where they were (303 to `next`), with the teacher
 * whose heart sent them here added to their favourites. A refusal renders the page again
 * with what was typed (never the password) and each field's message.
 *
 * "Forgot password?" likewise: POST /forgot-password asks better-auth's request-password-reset
 * (its rules, messages and rate limit) and renders the page with the modal's answer, the same
 * whether or not the address has an account.
 */

const FORMS = {
  login: { endpoint: '/sign-in/email', fields: ['email', 'password'] },
  register: { endpoint: '/sign-up/email', fields: ['name', 'email', 'password'] },
} as const;

type FormName = keyof typeof FORMS;

/** Where an e-mailed reset link leads (the web app's /reset-password page), as the modal asks. */
const RESET_PASSWORD_PATH = '/reset-password';

export interface AuthFormOptions {
  publicOrigin: string;
  trustedOrigins: string[];
  /** the page renderer (undefined when the web app is not built: refusals are then JSON) */
  renderPage?: PageRenderer;
}

/** The page's URL with its hidden fields: /login?next=…&favorite=… */
function pageUrl(form: FormName, next: string, favorite: string | undefined): string {
  const query = new URLSearchParams();
  if (next !== '/') query.set('next', next);
  if (favorite) query.set('favorite', favorite);
  const search = query.toString();
  return `/${form}${search ? `?${search}` : ''}`;
}

/** better-auth's answer to a refused post: its field messages, or one for the whole form. */
async function refusal(response: Response): Promise<Pick<FormEcho, 'errors' | 'message'>> {
  const body = (await response.json().catch(() => ({}))) as { fields?: unknown; code?: unknown };
  if (response.status === 400 && body.fields && typeof body.fields === 'object') {
    const errors: Record<string, string> = {};
    for (const [key, value] of Object.entries(body.fields)) if (typeof value === 'string') errors[key] = value;
    return { errors };
  }
  if (response.status === 401) return { errors: {}, message: toastMessages.invalidCredentials };
  if (response.status === 422) return { errors: {}, message: toastMessages.emailInUse };
  if (response.status === 429) return { errors: {}, message: toastMessages.tooManyAttempts };
  // a deactivated account (the admin plugin's ban, decision 109) is told so
  if (response.status === 403 && body.code === 'BANNED_USER') return { errors: {}, message: DEACTIVATED_MESSAGE };
  return { errors: {}, message: 'This request was refused. Please reload the page and try again.' };
}

export async function authFormRoutes(app: FastifyInstance, options: AuthFormOptions): Promise<void> {
  const favorites = createFavoritesRepository(app.db);

  const callAuth = authCaller(app, options.publicOrigin);

  /** A refusal (400, 401, 422, 429) rendered as the page again, with Retry-After on a 429. */
  const refused = async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    response: Response,
    refuse: (status: number, echo: Pick<FormEcho, 'errors' | 'message'>) => T,
  ) => {
    request.log.debug({ status: response.status }, 'form post refused');
    passRetryAfter(reply, response);
    return refuse(response.status === 401 || response.status === 422 ? 400 : response.status, await refusal(response));
  };

  await app.register(async (scope) => {
    acceptFormPosts(scope);
    scope.addHook('onRequest', refuseCrossSite(options.trustedOrigins));

    const answer = (form: FormName) => async (request: FastifyRequest, reply: FastifyReply) => {
      const posted = formFields(request);
      const favoriteParam = favoriteParamsSchema.safeParse({ teacherId: posted.favorite });
      const favorite = posted.favorite && favoriteParam.success ? favoriteParam.data.teacherId : undefined;
      const next = safeNext(posted.next);
      const values: Record<string, string> = {};
      for (const field of FORMS[form].fields) if (typeof posted[field] === 'string') values[field] = posted[field];

      const refuse = (status: number, echo: Omit<FormEcho, 'form' | 'values'>) => {
        // what was typed comes back, never the password
        const kept = Object.fromEntries(Object.entries(values).filter(([key]) => key !== 'password'));
        if (!options.renderPage) {
          return reply.code(status).send({ error: { code: 'VALIDATION_ERROR', message: echo.message ?? 'Invalid request body', fields: echo.errors } });
        }
        return options.renderPage(request, reply, {
          url: pageUrl(form, next ?? '/', favorite),
          status,
          echo: { form, values: kept, ...echo },
        });
      };

      if (next === undefined) return refuse(400, { errors: { next: 'Must be a path on this site' }, message: 'The page to go back to is not on this site.' });
      if (posted.favorite && !favorite) return refuse(400, { errors: { favorite: 'Invalid teacher id' }, message: 'That teacher cannot be added.' });

      const response = await callAuth(request, FORMS[form].endpoint, values);
      if (response.status !== 200) return refused(request, reply, response, refuse);

      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      let added = false;
      if (favorite) {
        const body = (await response.json()) as { user?: { id?: unknown } };
        // a teacher that no longer exists is simply not added: the person is signed in all the same
        if (typeof body.user?.id === 'string') added = await favorites.add(body.user.id, favorite);
      }
      setFlash(request, reply, added ? 'favoriteAdded' : form === 'login' ? 'signInSuccess' : 'signUpSuccess');
      return reply.header('cache-control', 'no-store').redirect(next, 303);
    };

    scope.post('/forgot-password', { schema: { hide: true } }, async (request, reply) => {
      const posted = formFields(request);
      const next = safeNext(posted.next);
      const values: Record<string, string> = typeof posted.email === 'string' ? { email: posted.email } : {};
      const render = (status: number, echo: Omit<FormEcho, 'form' | 'values'>) => {
        if (!options.renderPage) {
          if (echo.sent) return reply.code(status).header('cache-control', 'no-store').send({ message: accountMessages.resetLinkSent });
          return reply.code(status).send({ error: { code: 'VALIDATION_ERROR', message: echo.message ?? 'Invalid request body', fields: echo.errors } });
        }
        const query = next && next !== '/' ? `?${new URLSearchParams({ next }).toString()}` : '';
        return options.renderPage(request, reply, {
          url: `/forgot-password${query}`,
          status,
          echo: { form: 'forgot-password', values: echo.sent ? {} : values, ...echo },
        });
      };

      if (next === undefined) return render(400, { errors: { next: 'Must be a path on this site' }, message: 'The page to go back to is not on this site.' });
      const response = await callAuth(request, '/request-password-reset', { ...values, redirectTo: RESET_PASSWORD_PATH });
      if (response.status === 200) return render(200, { errors: {}, sent: true });
      return refused(request, reply, response, (status, echo) => render(status, echo));
    });
    scope.post('/login', { schema: { hide: true } }, answer('login'));
    scope.post('/register', { schema: { hide: true } }, answer('register'));
  });
}
