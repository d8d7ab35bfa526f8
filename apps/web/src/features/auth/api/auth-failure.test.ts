import { describe, expect, it } from 'vitest';
import { toastMessages } from '@learnlingo/contract';
import { describeAuthFailure } from './auth-failure';

const http = (status: number, data: unknown) => ({ status, data });

describe('describeAuthFailure', () => {
  it('maps better-auth codes to the original toasts', () => {
    expect(describeAuthFailure(http(401, { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'x' }))).toEqual({
      toast: 'Email or password is incorrect',
    });
    expect(describeAuthFailure(http(422, { code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL' }))).toEqual({ toast: 'Email in use' });
    expect(describeAuthFailure(http(422, { code: 'USER_ALREADY_EXISTS' }))).toEqual({ toast: 'Email in use' });
  });

  it('returns field errors of a validation failure in either body shape', () => {
    const fields = { email: 'Invalid email' };
    expect(describeAuthFailure(http(400, { error: { code: 'VALIDATION_ERROR', message: 'Bad', fields } }))).toEqual({ fields });
    expect(describeAuthFailure(http(400, { code: 'VALIDATION_ERROR', message: 'Bad', fields }))).toEqual({ fields });
  });

  it('says what happened for rate limits, server errors and network failures', () => {
    expect(describeAuthFailure(http(429, { message: 'Too many requests' }))).toEqual({ toast: toastMessages.tooManyAttempts });
    expect(describeAuthFailure(http(500, 'Internal'))).toEqual({ toast: toastMessages.serverError });
    expect(describeAuthFailure({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toEqual({
      toast: toastMessages.networkError,
    });
    expect(describeAuthFailure(http(400, { code: 'INVALID_EMAIL', message: 'Invalid email address' }))).toEqual({
      toast: 'Invalid email address',
    });
  });
});
