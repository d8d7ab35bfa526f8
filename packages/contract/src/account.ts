import { z } from 'zod';
import { emailSchema, nameSchema, PASSWORD_MAX, passwordSchema } from './auth.js';
import { validationMessages as m } from './messages.js';

/**
 * The account forms (issue 10), field names as better-auth's endpoints take them, so a
 * server's field errors land under the right field. A new password follows the
 * registration rules; a password the user already has is only required (it may predate them).
 */
const existingPasswordSchema = z
  .string({ error: m.passwordRequired })
  .min(1, m.passwordRequired)
  .max(PASSWORD_MAX, m.passwordTooLong);

/** POST /api/auth/request-password-reset */
export const requestPasswordResetSchema = z.object({ email: emailSchema });
export type RequestPasswordResetInput = z.infer<typeof requestPasswordResetSchema>;

/** POST /api/auth/reset-password (the token comes from the link) */
export const resetPasswordSchema = z.object({ newPassword: passwordSchema });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** POST /api/auth/update-user */
export const updateNameSchema = z.object({ name: nameSchema });
export type UpdateNameInput = z.infer<typeof updateNameSchema>;

/** POST /api/auth/change-password (the web app always ends the other sessions) */
export const changePasswordSchema = z.object({ currentPassword: existingPasswordSchema, newPassword: passwordSchema });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** POST /api/auth/delete-user */
export const deleteAccountSchema = z.object({ password: existingPasswordSchema });
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;
