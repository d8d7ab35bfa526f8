import { z } from 'zod';
import { validationMessages as m } from './messages.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './rules.js';
import { ROLES } from './roles.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 48;
/** A name, at registration and when changed on /account (issue 10: at most 100 characters). */
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/**
 * Same pattern on client and server: something@domain.tld, no spaces — the original's
 * `^[^\s@]+@[^\s@]+\.[^\s@]{2,}$`, in linear time. That one backtracked over every `.`
 * of a domain that then failed (`a@` + `a.`×31000 + `@`: ~1 s of one core). Here the
 * lookahead, reached once (the local part cannot give back an `@`), first makes sure the
 * rest holds no space or `@`; after that the domain can only fail at its last two dots,
 * so its backtracking is one pass. auth.test.ts checks both accept the same strings.
 */
export const EMAIL_PATTERN = /^[^\s@]+@(?=[^\s@]+$)[^\s@]+\.[^\s@]{2,}$/;

/**
 * Every string schema below caps the length first and stops there (`abort`), so no
 * pattern ever sees more than the cap; control characters are refused next.
 */
const noControl = { error: CONTROL_CHARACTER_MESSAGE, abort: true } as const;

export const emailSchema = z
  .string({ error: m.emailRequired })
  .max(EMAIL_MAX * 4, { error: m.invalidEmail, abort: true })
  .trim()
  .min(1, m.emailRequired)
  .max(EMAIL_MAX, { error: m.invalidEmail, abort: true })
  .refine((v) => !hasControlCharacter(v), noControl)
  .regex(EMAIL_PATTERN, m.invalidEmail);

export const passwordSchema = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .min(PASSWORD_MIN, m.passwordTooShort)
  .max(PASSWORD_MAX, { error: m.passwordTooLong, abort: true })
  .refine((v) => !hasControlCharacter(v), noControl)
  .regex(/\p{L}/u, m.passwordNeedsLetter);

export const nameSchema = z
  .string({ error: m.nameRequired })
  .max(NAME_MAX * 4, { error: `Name must be at most ${NAME_MAX} characters`, abort: true })
  .trim()
  .min(1, m.nameRequired)
  .max(NAME_MAX, { error: `Name must be at most ${NAME_MAX} characters`, abort: true })
  .refine((v) => !hasControlCharacter(v), noControl);

export const loginSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The part of better-auth's session the app uses. */
export const sessionUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** whether the e-mail is confirmed (better-auth's user field) */
  emailVerified: z.boolean().optional(),
  /** learner, teacher or admin (better-auth's admin plugin; decision 109) */
  role: z.enum(ROLES).optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z
  .object({ user: sessionUserSchema })
  .nullable();
export type Session = z.infer<typeof sessionSchema>;
