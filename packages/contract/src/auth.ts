import { z } from 'zod';
import { validationMessages as m } from './messages.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 48;
export const NAME_MAX = 60;
export const EMAIL_MAX = 254;

/** Same pattern on client and server: something@domain.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

export const emailSchema = z
  .string({ error: m.emailRequired })
  .trim()
  .min(1, m.emailRequired)
  .max(EMAIL_MAX, m.invalidEmail)
  .regex(EMAIL_PATTERN, m.invalidEmail);

export const passwordSchema = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .min(PASSWORD_MIN, m.passwordTooShort)
  .max(PASSWORD_MAX, m.passwordTooLong)
  .regex(/\p{L}/u, m.passwordNeedsLetter);

export const nameSchema = z
  .string({ error: m.nameRequired })
  .trim()
  .min(1, m.nameRequired)
  .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`);

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
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z
  .object({ user: sessionUserSchema })
  .nullable();
export type Session = z.infer<typeof sessionSchema>;
