import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import toast from 'react-hot-toast';
import { accountMessages, deleteAccountSchema } from '@learnlingo/contract';
import { useAppDispatch } from '../../../../store';
import { Button } from '../../../../components/ui/button';
import { Modal } from '../../../../components/ui/modal';
import { useDeleteAccountMutation } from '../../api/auth-api';
import { loggedOut } from '../../auth-slice';
import { announceSession } from '../../lib/session-watch';
import { PasswordField } from '../password-field';
import { useAuthFormFailure } from '../use-auth-form-failure';
import styles from './account.module.css';

const FIELDS = ['password'] as const;

export const DELETE_ACCOUNT_TEXT =
  'This cannot be undone. Your account, its sessions and your favorites are removed; your bookings stay with the teacher without your name, email or phone. Type your password to confirm.';

function DeleteAccountForm({ onCancel }: { onCancel: () => void }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [deleteAccount] = useDeleteAccountMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(deleteAccountSchema), mode: 'all', defaultValues: { password: '' } });
  const showFailure = useAuthFormFailure(setError, FIELDS, 'password');

  const onSubmit = handleSubmit(async (values) => {
    const result = await deleteAccount(values);
    if (result.error) return showFailure(result.error);
    dispatch(loggedOut());
    announceSession('signed-out');
    toast.success(accountMessages.accountDeleted);
    await navigate('/', { replace: true });
  });

  return (
    <form className={styles.form} method="post" noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
      <PasswordField
        label="Password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <div className={styles.actions}>
        <Button type="submit" className={styles.danger} disabled={isSubmitting}>
          Delete my account
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Deleting the account: a button here, the password typed in a modal to confirm. */
export function DeleteAccount() {
  const [open, setOpen] = useState(false);
  return (
    <section className={styles.card} aria-labelledby="account-delete">
      <h2 id="account-delete" className={styles.cardTitle}>
        Delete account
      </h2>
      <p className={styles.cardText}>Remove your account and everything kept with it.</p>
      <div className={styles.actions}>
        <Button className={styles.danger} onClick={() => setOpen(true)}>
          Delete account
        </Button>
      </div>
      <Modal open={open} onClose={() => setOpen(false)} title="Delete account" description={DELETE_ACCOUNT_TEXT}>
        <DeleteAccountForm onCancel={() => setOpen(false)} />
      </Modal>
    </section>
  );
}
