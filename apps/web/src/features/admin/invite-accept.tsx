import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { nameSchema, passwordSchema, type InvitationPreview } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { TextField } from '../../components/ui/text-field';
import { errorFields, errorStatus, genericErrorMessage } from '../../lib/api-error';
import type { AppDispatch } from '../../store';
import { inviteApi, useAcceptInvitationMutation, usePreviewInvitationQuery } from './invite-api';
import { useLive } from './teacher-form-fields';
import styles from './invite.module.css';

/** An invitation link's token (checked before any request; the server checks it again). */
const tokenOf = (search: URLSearchParams): string | null => {
  const token = search.get('token') ?? '';
  return token.length === 32 && /^[A-Za-z0-9_-]+$/.test(token) ? token : null;
};

/** /invite?token=…: the server asks whether the link works; one that does not answers 404. */
export async function prefetchInvite({ dispatch, searchParams }: { dispatch: AppDispatch; searchParams: URLSearchParams }) {
  const token = tokenOf(searchParams);
  if (token === null) return 'not-found' as const;
  const preview = await dispatch(inviteApi.endpoints.previewInvitation.initiate(token));
  const status = errorStatus(preview.error);
  return status === 400 || status === 404 ? ('not-found' as const) : undefined;
}

function AcceptForm({ token, preview, onDone }: { token: string; preview: InvitationPreview; onDone: () => void }) {
  const [accept] = useAcceptInvitationMutation();
  const [failure, setFailure] = useState<string | null>(null);
  const schema = z.object({ name: preview.accountExists ? z.string().optional() : nameSchema, password: passwordSchema });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), mode: 'onTouched', defaultValues: { name: '', password: '' } });

  // no server route takes this form: it posts (never a query with the password) and its button
  // waits for the app, as the console's do (a tap before that would send nothing useful)
  const live = useLive();
  const onSubmit = handleSubmit(async ({ name, password }) => {
    setFailure(null);
    const result = await accept({ token, password, ...(preview.accountExists ? {} : { name }) });
    if (!result.error) return onDone();
    const fields = errorFields(result.error);
    if (fields.password) return setError('password', { type: 'server', message: fields.password }, { shouldFocus: true });
    if (fields.name) return setError('name', { type: 'server', message: fields.name }, { shouldFocus: true });
    setFailure(genericErrorMessage(result.error));
  });

  return (
    <form className={styles.form} method="post" noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
      <TextField label="E-mail" value={preview.email} readOnly autoComplete="username" />
      {preview.accountExists ? null : <TextField label="Your name" autoComplete="name" error={errors.name?.message} {...register('name')} />}
      <TextField label="Password" type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
      {failure ? <p role="alert">{failure}</p> : null}
      <div>
        <Button type="submit" disabled={isSubmitting || !live}>
          Set password
        </Button>
      </div>
    </form>
  );
}

/** The page an invitation's e-mailed link opens: set a password, and the account is the teacher's. */
export function InviteAcceptPage() {
  const [search] = useSearchParams();
  const token = tokenOf(search);
  const { data: preview, isError } = usePreviewInvitationQuery(token ?? '', { skip: token === null });
  const [done, setDone] = useState(false);
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <h1 className={styles.heading}>Your teacher account</h1>
        <div className={styles.card}>
          {done ? (
            <>
              <p>Your password is set. Log in with {preview?.email} to reach your teacher account.</p>
              <div>
                <ButtonLink to="/login">Log in</ButtonLink>
              </div>
            </>
          ) : token === null || isError ? (
            <p>This invitation link does not work any more: it was used, revoked or has expired. Ask the school for a new one.</p>
          ) : preview ? (
            <>
              <p>
                The school invites you to LearnLingo as the teacher <strong>{preview.teacherName}</strong>.{' '}
                {preview.accountExists ? 'Choose a new password for your account.' : 'Choose your name and a password.'}
              </p>
              <AcceptForm token={token} preview={preview} onDone={() => setDone(true)} />
            </>
          ) : null}
        </div>
      </div>
    </div>
  );
}
