/**
 * Texts of the account screens (forgot password, reset, /account) and of the session's
 * edge cases. New with issue 10 (the original has no such screens); zod-free, so the
 * first page load may use them.
 */
export const accountMessages = {
  forgotPassword: 'Forgot password?',
  /** the same answer whether or not the e-mail has an account */
  resetLinkSent: 'If an account exists, we sent a link',
  resetLinkInvalid: 'This link is invalid or has expired. Ask for a new one.',
  passwordReset: 'Your password is changed. Log in with the new one.',
  nameChanged: 'Your name is changed',
  passwordChanged: 'Your password is changed. Your other devices are signed out.',
  otherSessionsEnded: 'Your other devices are signed out',
  accountDeleted: 'Your account is deleted',
  wrongPassword: 'Wrong password',
  verificationSent: 'We sent you a new confirmation link',
  emailConfirmed: 'Thank you: your email is confirmed',
  confirmationLinkInvalid: 'This confirmation link is invalid or has expired.',
  logoutFailed: 'Could not log out. Check your connection and try again.',
} as const;

/**
 * The too-many-attempts message with the real wait (from `Retry-After`, in seconds).
 * A minute reads exactly like `toastMessages.tooManyAttempts`.
 */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  let wait: string;
  if (seconds === 1) wait = '1 second';
  else if (seconds < 60) wait = `${seconds} seconds`;
  else if (seconds === 60) wait = 'a minute';
  else wait = `${Math.ceil(seconds / 60)} minutes`;
  return `Too many attempts. Please wait ${wait} and try again.`;
}
