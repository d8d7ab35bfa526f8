import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { Link } from 'react-router';
import { accountMessages, requestPasswordResetSchema } from '@learnlingo/contract';
import { openModal } from '../../../store';
import { Button, buttonClassName } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useRequestPasswordResetMutation } from '../api/auth-api';
import { useAuthFormFailure } from './use-auth-form-failure';
import { fieldError, usePageForm, type PageForm } from './page-form';
import styles from './auth-form.module.css';

const FIELDS = ['email'] as const;

/**
 * The Forgot password modal's form: the e-mail, then always the same answer — whether
 * the address has an account is nobody's business but its owner's. Given `page`, the
 * /forgot-password page's, which posts to the server (page-form.tsx) and is answered there.
 */
export default function ForgotPasswordForm({ page }: { onDone?: () => void; page?: PageForm }) {
  const dispatch = useDispatch();
  const [requestReset] = useRequestPasswordResetMutation();
  const [sentHere, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm({
    resolver: zodResolver(requestPasswordResetSchema),
    mode: 'all',
    defaultValues: { email: page?.echo?.values.email ?? '' },
  });
  const showFailure = useAuthFormFailure(setError, FIELDS);
  const asPage = usePageForm(page, handleSubmit);

  const onSubmit = handleSubmit(async (values) => {
    const result = await requestReset(values);
    if (result.error) return showFailure(result.error);
    setSent(true);
  });

  if (sentHere || page?.echo?.sent) {
    const query = new URLSearchParams(page?.hidden).toString();
    return (
      <div className={styles.sent}>
        <p role="status" className={styles.sentText}>
          {accountMessages.resetLinkSent}
        </p>
        {page ? (
          <Link to={`/login${query ? `?${query}` : ''}`} className={buttonClassName('primary', true)}>
            Back to Log In
          </Link>
        ) : (
          <Button fullWidth onClick={() => dispatch(openModal('login'))}>
            Back to Log In
          </Button>
        )}
      </div>
    );
  }

  return (
    <form className={styles.form} noValidate onSubmit={asPage.submitAsPage ?? onSubmit} aria-busy={isSubmitting} {...asPage.attributes}>
      {asPage.hidden}
      <div className={styles.fields}>
        <TextField
          label="Email"
          // the page shows its label, as /login and /register do
          hideLabel={!page}
          placeholder="Email"
          type="email"
          autoComplete="email"
          error={fieldError(errors.email?.message, page, 'email', dirtyFields.email)}
          // in the server's HTML too (register sets the value only once hydrated)
          defaultValue={page?.echo?.values.email}
          {...register('email')}
        />
      </div>
      {asPage.message}
      <Button type="submit" fullWidth disabled={isSubmitting}>
        Send link
      </Button>
    </form>
  );
}
