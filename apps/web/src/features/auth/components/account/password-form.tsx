import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { accountMessages, changePasswordSchema } from '@learnlingo/contract';
import { useAppSelector } from '../../../../store';
import { Button } from '../../../../components/ui/button';
import { useChangePasswordMutation } from '../../api/auth-api';
import { announceSession } from '../../lib/session-watch';
import { PasswordField } from '../password-field';
import { useAuthFormFailure } from '../use-auth-form-failure';
import styles from './account.module.css';

const FIELDS = ['currentPassword', 'newPassword'] as const;

/** A new password (the registration rules), the current one required; every other device is signed out. */
export function PasswordForm() {
  // refused without JavaScript (account-form-routes.ts): the server's messages until a field changes
  const echo = useAppSelector((state) => (state.formEcho?.echo?.form === 'account-password' ? state.formEcho.echo : undefined));
  const [changePassword] = useChangePasswordMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm({
    resolver: zodResolver(changePasswordSchema),
    mode: 'all',
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const showFailure = useAuthFormFailure(setError, FIELDS, 'currentPassword');

  const onSubmit = handleSubmit(async (values) => {
    const result = await changePassword(values);
    if (result.error) return showFailure(result.error);
    reset();
    // this tab holds a fresh session now; the browser's other tabs share its cookie
    announceSession('changed');
    toast.success(accountMessages.passwordChanged);
  });

  return (
    <section className={styles.card} aria-labelledby="account-password">
      <h2 id="account-password" className={styles.cardTitle}>
        Password
      </h2>
      <p className={styles.cardText}>Changing it signs you out on every other device.</p>
      <form className={styles.form} method="post" action="/account/password" noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
        {echo?.message ? <p role="alert">{echo.message}</p> : null}
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          error={errors.currentPassword?.message ?? (dirtyFields.currentPassword ? undefined : echo?.errors.currentPassword)}
          {...register('currentPassword')}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          error={errors.newPassword?.message ?? (dirtyFields.newPassword ? undefined : echo?.errors.newPassword)}
          {...register('newPassword')}
        />
        <div className={styles.actions}>
          <Button type="submit" disabled={isSubmitting}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}
