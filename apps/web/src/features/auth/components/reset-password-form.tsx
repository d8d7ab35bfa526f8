import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { accountMessages, authErrorCodes, resetPasswordSchema } from '@learnlingo/contract';
import type { FormEcho } from '@learnlingo/contract/plain';
import { openModal, useAppDispatch } from '../../../store';
import { Button } from '../../../components/ui/button';
import { errorCode } from '../../../lib/api-error';
import { useResetPasswordMutation } from '../api/auth-api';
import { recheckSession } from '../lib/session-watch';
import { PasswordField } from './password-field';
import { useAuthFormFailure } from './use-auth-form-failure';
import styles from './account/account.module.css';

const FIELDS = ['newPassword'] as const;

/** The link's token is missing, used or expired: say so, and offer a new link. */
export function InvalidResetLink() {
  const dispatch = useAppDispatch();
  return (
    <div className={styles.invalid}>
      <p role="alert">{accountMessages.resetLinkInvalid}</p>
      <Button onClick={() => dispatch(openModal('forgot-password'))}>Send me a new link</Button>
    </div>
  );
}

/**
 * /reset-password: a new password under the registration rules; then the user logs in with it.
 * The form posts to the page's own URL, which the server answers without JavaScript
 * (account-form-routes.ts); `echo` is its refusal, shown until the field changes.
 */
export function ResetPasswordForm({ token, echo }: { token: string; echo?: FormEcho | undefined }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [resetPassword] = useResetPasswordMutation();
  const [linkInvalid, setLinkInvalid] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm({ resolver: zodResolver(resetPasswordSchema), mode: 'all', defaultValues: { newPassword: '' } });
  const showFailure = useAuthFormFailure(setError, FIELDS);

  const onSubmit = handleSubmit(async (values) => {
    const result = await resetPassword({ ...values, token });
    if (result.error) {
      if (errorCode(result.error) === authErrorCodes.invalidToken) setLinkInvalid(true);
      else showFailure(result.error);
      return;
    }
    toast.success(accountMessages.passwordReset);
    // every session of that user has ended, this browser's too if it had one
    await dispatch(recheckSession());
    await navigate('/', { replace: true });
    dispatch(openModal('login'));
  });

  if (linkInvalid) return <InvalidResetLink />;

  return (
    <form
      className={styles.form}
      method="post"
      action={`/reset-password?${new URLSearchParams({ token }).toString()}`}
      noValidate
      onSubmit={onSubmit}
      aria-busy={isSubmitting}
    >
      <p className={styles.cardText}>
        Choose a new password for your account. Every device signed in to it will be signed out.
      </p>
      {echo?.message ? <p role="alert">{echo.message}</p> : null}
      <PasswordField
        label="New password"
        placeholder="New password"
        autoComplete="new-password"
        error={errors.newPassword?.message ?? (dirtyFields.newPassword ? undefined : echo?.errors.newPassword)}
        {...register('newPassword')}
      />
      <div className={styles.actions}>
        <Button type="submit" disabled={isSubmitting}>
          Save password
        </Button>
      </div>
    </form>
  );
}
