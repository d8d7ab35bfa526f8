import {
  changePasswordSchema,
  deleteAccountSchema,
  emailSchema,
  loginSchema,
  PASSWORD_MAX,
  registerSchema,
  requestPasswordResetSchema,
  resetPasswordSchema,
  updateNameSchema,
  validationMessages,
} from '@learnlingo/contract';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { z } from 'zod';

/*
 * The forms' rules (PRODUCT.md, packages/contract) for every better-auth endpoint that takes
 * a name, an e-mail or a password, keyed by the endpoint better-auth has resolved — not by the
 * request's URL, which `/api/auth/./sign-up/email` or `%2F` spellings route to the same
 * endpoint. Runs as better-auth's before-hook, so it also covers direct `auth.api` calls.
 */

/** A password the user already has: only required and capped (better-auth checks it against the hash). */
const existingPassword = z
  .string({ error: validationMessages.passwordRequired })
  .min(1, validationMessages.passwordRequired)
  .max(PASSWORD_MAX, validationMessages.passwordTooLong);

/** better-auth's optional redirect targets (its origin check decides where they may point) */
const callbackURL = z.string().max(2000, 'must be at most 2000 characters').optional();
const rememberMe = z.boolean().optional();

/*
 * Strict: a key better-auth would take but the product does not (a sign-up `image` of any
 * length, say) is refused, not stored.
 */
const RULES: Record<string, z.ZodType> = {
  '/sign-up/email': registerSchema.extend({ callbackURL, rememberMe }).strict(),
  '/sign-in/email': loginSchema.extend({ callbackURL, rememberMe }).strict(),
  '/request-password-reset': requestPasswordResetSchema.extend({ redirectTo: callbackURL }).strict(),
  '/reset-password': resetPasswordSchema.extend({ token: z.string().max(200).optional() }).strict(),
  '/send-verification-email': z.object({ email: emailSchema, callbackURL }).strict(),
  '/change-password': changePasswordSchema.extend({ revokeOtherSessions: z.boolean().optional() }).strict(),
  // only the name can be changed (not the e-mail, not a picture URL of any length)
  '/update-user': updateNameSchema.strict(),
  '/change-email': z.object({ newEmail: emailSchema, callbackURL }).strict(),
  // the password is required: better-auth would otherwise delete a fresh session's user without it
  '/delete-user': deleteAccountSchema.extend({ callbackURL }).strict(),
  '/verify-password': z.object({ password: existingPassword }).strict(),
};

/** `{code: 'VALIDATION_ERROR', message, fields}`: the shape the forms already read from the sign-up route. */
export function validationError(fields: Record<string, string>, message = 'Invalid request body'): APIError {
  return new APIError('BAD_REQUEST', { code: 'VALIDATION_ERROR', message, fields });
}

function check(schema: z.ZodType, body: unknown): { data: object } | { fields: Record<string, string> } {
  const result = schema.safeParse(body ?? {});
  if (result.success) return { data: result.data as object };
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const at = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      // each key the product does not take is a field of its own, as on the app's routes
      for (const key of issue.keys) fields[at ? `${at}.${key}` : key] ??= 'Not allowed';
    } else fields[at || 'body'] ??= issue.message;
  }
  return { fields };
}

export const formRulesHook = createAuthMiddleware(async (ctx) => {
  const schema = RULES[ctx.path];
  if (!schema) return;
  if (ctx.body !== undefined && (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body))) {
    throw validationError({}, 'The body must be a JSON object');
  }
  const checked = check(schema, ctx.body);
  if ('fields' in checked) throw validationError(checked.fields);
  // better-auth goes on with the checked values (a trimmed name and e-mail) and the body's other keys
  const body: Record<string, unknown> = { ...(ctx.body as object), ...checked.data };
  // Changing the password always ends the user's other sessions (their cookies may be stolen).
  if (ctx.path === '/change-password') body.revokeOtherSessions = true;
  return { context: { body } };
});
