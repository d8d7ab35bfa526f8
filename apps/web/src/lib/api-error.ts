import { toastMessages, tooManyAttemptsMessage } from '@learnlingo/contract/plain';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

export type RequestError = FetchBaseQueryError | SerializedError | undefined;

interface ErrorBody {
  code?: string;
  message?: string;
  fields?: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readFields(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const fields: Record<string, string> = {};
  for (const [key, message] of Object.entries(value)) if (typeof message === 'string') fields[key] = message;
  return fields;
}

/**
 * Reads an error body in either shape the server uses: the API's
 * `{ error: { code, message, fields? } }` or better-auth's `{ code, message }`.
 * Tolerant on purpose (no zod here: this module is part of the first page load).
 */
function readErrorBody(data: unknown): ErrorBody | undefined {
  if (!isRecord(data)) return undefined;
  const source = isRecord(data.error) ? data.error : data;
  const body: ErrorBody = {};
  if (typeof source.code === 'string') body.code = source.code;
  if (typeof source.message === 'string') body.message = source.message;
  const fields = readFields(source.fields);
  if (fields) body.fields = fields;
  return body;
}

function bodyOf(error: RequestError): ErrorBody | undefined {
  if (!error || !('status' in error)) return undefined;
  return readErrorBody(error.data);
}

/** The stable error code of a failed request: the API's `{error:{code}}` or better-auth's `{code}`. */
export function errorCode(error: RequestError): string | undefined {
  return bodyOf(error)?.code;
}

/** Field → message of a validation failure, when the server named the fields. */
export function errorFields(error: RequestError): Record<string, string> {
  return bodyOf(error)?.fields ?? {};
}

/** The wait (seconds) a 429 named in `Retry-After`, which lib/api.ts keeps in the body. */
export function errorRetryAfter(error: RequestError): number | undefined {
  if (!error || !('status' in error) || !isRecord(error.data)) return undefined;
  const { retryAfter } = error.data;
  return typeof retryAfter === 'number' && Number.isFinite(retryAfter) ? retryAfter : undefined;
}

/** The too-many-attempts message, with the real wait when the server named it. */
export function tooManyAttemptsText(error: RequestError): string {
  const wait = errorRetryAfter(error);
  return wait === undefined ? toastMessages.tooManyAttempts : tooManyAttemptsMessage(wait);
}

/** HTTP status of a failed request, or undefined for a network failure. */
export function errorStatus(error: RequestError): number | undefined {
  if (!error || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

/** true when the request never got an HTTP answer (offline, server down, CORS, aborted). */
export function isNetworkError(error: RequestError): boolean {
  return !!error && 'status' in error && error.status === 'FETCH_ERROR';
}

/** A message that says what happened and what to do, for failures with no dedicated toast. */
export function genericErrorMessage(error: RequestError): string {
  const status = errorStatus(error);
  if (status === undefined) return toastMessages.networkError;
  if (status === 429) return tooManyAttemptsText(error);
  // the session ended (the tab signs out, see features/auth): sign in again
  if (status === 401) return toastMessages.needAuth;
  if (status >= 500) return toastMessages.serverError;
  return bodyOf(error)?.message || toastMessages.serverError;
}

/**
 * The wait a 429 answer names, in seconds: `Retry-After` (seconds or an HTTP date), else
 * better-auth's `X-Retry-After`. Undefined when neither says. Part of the first load (the
 * session check at start honours it), so plain code.
 */
export function retryAfterSeconds(headers: Headers | undefined, now = Date.now()): number | undefined {
  const value = (headers?.get('retry-after') ?? headers?.get('x-retry-after'))?.trim();
  if (!value || value.length > 64) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
