import { apiErrorSchema, authErrorSchema, toastMessages } from '@learnlingo/contract';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

export type RequestError = FetchBaseQueryError | SerializedError | undefined;

/** The stable error code of a failed request: the API's `{error:{code}}` or better-auth's `{code}`. */
export function errorCode(error: RequestError): string | undefined {
  if (!error || !('status' in error)) return undefined;
  const api = apiErrorSchema.safeParse(error.data);
  if (api.success) return api.data.error.code;
  const auth = authErrorSchema.safeParse(error.data);
  if (auth.success) return auth.data.code;
  return undefined;
}

/** HTTP status of a failed request, or undefined for a network failure. */
export function errorStatus(error: RequestError): number | undefined {
  if (!error || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/** A message that says what happened and what to do, for failures with no dedicated toast. */
export function genericErrorMessage(error: RequestError): string {
  const status = errorStatus(error);
  if (status === undefined) return toastMessages.networkError;
  if (status === 429) return toastMessages.tooManyAttempts;
  if (status >= 500) return toastMessages.serverError;
  if (error && 'data' in error) {
    const api = apiErrorSchema.safeParse(error.data);
    if (api.success) return api.data.error.message;
    const auth = authErrorSchema.safeParse(error.data);
    if (auth.success && auth.data.message) return auth.data.message;
  }
  return toastMessages.serverError;
}
