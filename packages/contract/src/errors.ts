import { z } from 'zod';

/** Stable error codes of the API's own routes: `{ error: { code, message, fields? } }`. */
export const apiErrorCodes = [
  'VALIDATION_ERROR',
  'BAD_CURSOR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  /** a teacher's picture could not be fetched from where the catalogue says it is */
  'BAD_GATEWAY',
  /** the lesson time was booked by someone else first */
  'SLOT_TAKEN',
  /** a lesson can be cancelled only up to the school's cut-off (default 12 hours) before it starts (decision 117) */
  'CANCEL_TOO_LATE',
  /** a lesson's state forbids the action: a request already answered or expired, a lesson already cancelled (decision 117) */
  'LESSON_STATE',
  /** a visitor's booking was not confirmed by its e-mail link in time (decision 102) */
  'BOOKING_EXPIRED',
  /** the change clashes with what is there (a profile that already has an account; decision 109) */
  'CONFLICT',
  /** a teacher's page that was public and is hidden now (decision 111) */
  'GONE',
  /** a lesson's review cannot be written or changed now: not ended, did not take place, window over (decision 112) */
  'REVIEW_CLOSED',
] as const;
export const apiErrorCodeSchema = z.enum(apiErrorCodes);
export type ApiErrorCode = z.infer<typeof apiErrorCodeSchema>;

export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    /** field path (dot-joined) → first message for that field */
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export { authErrorCodes } from './codes.js';

export const authErrorSchema = z.object({
  code: z.string().optional(),
  message: z.string().optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type AuthError = z.infer<typeof authErrorSchema>;
