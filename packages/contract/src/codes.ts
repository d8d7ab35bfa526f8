/**
 * better-auth answers its own routes (/api/auth/*) with `{ code, message }`.
 * These are the codes the UI maps to the original's toasts.
 */
export const authErrorCodes = {
  invalidCredentials: 'INVALID_EMAIL_OR_PASSWORD',
  emailInUse: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
  /** older spelling of the same condition in better-auth */
  emailInUseLegacy: 'USER_ALREADY_EXISTS',
  validation: 'VALIDATION_ERROR',
  rateLimited: 'RATE_LIMITED',
  /** change-password / delete-user: the current password is wrong */
  invalidPassword: 'INVALID_PASSWORD',
  /** reset-password: the link's token is unknown, used or expired */
  invalidToken: 'INVALID_TOKEN',
} as const;
