import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { accountMessages, requestPasswordResetSchema } from '@learnlingo/contract';
import { openModal } from '../../../store';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useRequestPasswordResetMutation } from '../api/auth-api';
import { useAuthFormFailure } from './use-auth-form-failure';
import styles from './auth-form.module.css';

const FIELDS = ['email'] as const;

/**
 * The Forgot password modal's form: the e-mail, then always the same answer — whether
 * the address has an account is nobody's business but its owner's.
 */
export default function ForgotPasswordForm() {
  const dispatch = useDispatch();
  const [requestReset] = useRequestPasswordResetMutation();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(requestPasswordResetSchema), mode: 'all', defaultValues: { email: '' } });
  const showFailure = useAuthFormFailure(setError, FIELDS);

  const onSubmit = handleSubmit(async (values) => {
    const result = await requestReset(values);
    if (result.error) return showFailure(result.error);
    setSent(true);
  });

  if (sent) {
    return (
      <div className={styles.sent}>
        <p role="status" className={styles.sentText}>
          {accountMessages.resetLinkSent}
        </p>
        <Button fullWidth onClick={() => dispatch(openModal('login'))}>
          Back to Log In
        </Button>
      </div>
    );
  }

  return (
    <form className={styles.form} noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
      <div className={styles.fields}>
        <TextField
          label="Email"
          hideLabel
          placeholder="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
      </div>
      <Button type="submit" fullWidth disabled={isSubmitting}>
        Send link
      </Button>
    </form>
  );
}
