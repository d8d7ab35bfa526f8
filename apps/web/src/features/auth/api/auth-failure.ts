import { authErrorCodes, toastMessages } from '@learnlingo/contract/plain';
import {
  errorCode,
  errorFields,
  errorStatus,
  genericErrorMessage,
  tooManyAttemptsText,
  type RequestError,
} from '../../../lib/api-error';

export interface AuthFailure {
  /** the toast to show, if any */
  toast?: string;
  /** server-side field errors to show under the fields */
  fields?: Record<string, string>;
}

/** What a failed sign-in or registration means for the user (the original's toasts first). */
export function describeAuthFailure(error: RequestError): AuthFailure {
  const code = errorCode(error);
  if (code === authErrorCodes.invalidCredentials) return { toast: toastMessages.invalidCredentials };
  if (code === authErrorCodes.emailInUse || code === authErrorCodes.emailInUseLegacy) {
    return { toast: toastMessages.emailInUse };
  }
  if (code === authErrorCodes.validation) {
    const fields = errorFields(error);
    if (Object.keys(fields).length > 0) return { fields };
  }
  if (code === authErrorCodes.rateLimited || errorStatus(error) === 429) return { toast: tooManyAttemptsText(error) };
  return { toast: genericErrorMessage(error) };
}
