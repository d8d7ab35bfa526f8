import { describe, expect, it } from 'vitest';
import { changePasswordSchema, deleteAccountSchema, resetPasswordSchema, updateNameSchema } from './account.js';
import { tooManyAttemptsMessage } from './account-messages.js';
import { toastMessages, validationMessages as m } from './messages.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe('account forms', () => {
  it('a new password follows the registration rules and messages', () => {
    expect(firstMessage(resetPasswordSchema.safeParse({ newPassword: '' }))).toBe(m.passwordRequired);
    expect(firstMessage(resetPasswordSchema.safeParse({ newPassword: 'abc' }))).toBe(m.passwordTooShort);
    expect(firstMessage(resetPasswordSchema.safeParse({ newPassword: '12345678' }))).toBe(m.passwordNeedsLetter);
    expect(firstMessage(resetPasswordSchema.safeParse({ newPassword: 'a'.repeat(49) }))).toBe(m.passwordTooLong);
    expect(resetPasswordSchema.safeParse({ newPassword: 'new-secret1' }).success).toBe(true);
  });

  it('the current password is only required (an older one may predate the rules)', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: '1234567', newPassword: 'new-secret1' }).success).toBe(true);
    expect(firstMessage(changePasswordSchema.safeParse({ currentPassword: '', newPassword: 'new-secret1' }))).toBe(
      m.passwordRequired,
    );
    expect(firstMessage(deleteAccountSchema.safeParse({ password: '' }))).toBe(m.passwordRequired);
    expect(firstMessage(deleteAccountSchema.safeParse({ password: 'x'.repeat(49) }))).toBe(m.passwordTooLong);
  });

  it('a name follows the registration rule', () => {
    expect(firstMessage(updateNameSchema.safeParse({ name: '   ' }))).toBe(m.nameRequired);
    expect(updateNameSchema.parse({ name: '  Ann Lee ' })).toEqual({ name: 'Ann Lee' });
  });
});

describe('tooManyAttemptsMessage', () => {
  it.each([
    [0.2, 'Too many attempts. Please wait 1 second and try again.'],
    [7, 'Too many attempts. Please wait 7 seconds and try again.'],
    [58.2, 'Too many attempts. Please wait 59 seconds and try again.'],
    [59.1, toastMessages.tooManyAttempts],
    [60, toastMessages.tooManyAttempts],
    [61, 'Too many attempts. Please wait 2 minutes and try again.'],
    [600, 'Too many attempts. Please wait 10 minutes and try again.'],
  ])('%s s → %s', (seconds, message) => {
    expect(tooManyAttemptsMessage(seconds)).toBe(message);
  });
});
