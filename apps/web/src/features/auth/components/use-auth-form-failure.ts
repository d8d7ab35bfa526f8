import { useCallback } from 'react';
import toast from 'react-hot-toast';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { accountMessages, authErrorCodes } from '@learnlingo/contract/plain';
import { errorCode, type RequestError } from '../../../lib/api-error';
import { describeAuthFailure } from '../api/auth-failure';

/**
 * Shows a failed auth form: a toast, or errors under the named fields. Typed values stay.
 * `wrongPasswordField`: where better-auth's INVALID_PASSWORD (a wrong current password) goes.
 */
export function useAuthFormFailure<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fieldNames: readonly Path<T>[],
  wrongPasswordField?: Path<T>,
) {
  return useCallback(
    (error: RequestError) => {
      if (wrongPasswordField && errorCode(error) === authErrorCodes.invalidPassword) {
        setError(wrongPasswordField, { type: 'server', message: accountMessages.wrongPassword }, { shouldFocus: true });
        return;
      }
      const failure = describeAuthFailure(error);
      const fields = Object.entries(failure.fields ?? {}).filter(([name]) => fieldNames.includes(name as Path<T>));
      fields.forEach(([name, message], index) =>
        setError(name as Path<T>, { type: 'server', message }, { shouldFocus: index === 0 }),
      );
      const toastMessage = failure.toast ?? (fields.length === 0 ? Object.values(failure.fields ?? {})[0] : undefined);
      if (toastMessage) toast.error(toastMessage);
    },
    [setError, fieldNames, wrongPasswordField],
  );
}
