import { useCallback } from 'react';
import toast from 'react-hot-toast';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { RequestError } from '../../../lib/api-error';
import { describeAuthFailure } from '../api/auth-failure';

/** Shows a failed sign-in/registration: a toast, or errors under the named fields. Typed values stay. */
export function useAuthFormFailure<T extends FieldValues>(setError: UseFormSetError<T>, fieldNames: readonly Path<T>[]) {
  return useCallback(
    (error: RequestError) => {
      const failure = describeAuthFailure(error);
      const fields = Object.entries(failure.fields ?? {}).filter(([name]) => fieldNames.includes(name as Path<T>));
      fields.forEach(([name, message], index) =>
        setError(name as Path<T>, { type: 'server', message }, { shouldFocus: index === 0 }),
      );
      const toastMessage = failure.toast ?? (fields.length === 0 ? Object.values(failure.fields ?? {})[0] : undefined);
      if (toastMessage) toast.error(toastMessage);
    },
    [setError, fieldNames],
  );
}
