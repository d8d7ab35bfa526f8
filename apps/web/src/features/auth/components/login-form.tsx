import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import toast from 'react-hot-toast';
import { accountMessages, loginSchema, toastMessages } from '@learnlingo/contract';
import { openModal } from '../../../store';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { signedIn } from '../auth-slice';
import { useSignInMutation } from '../api/auth-api';
import { PasswordField } from './password-field';
import { useAuthFormFailure } from './use-auth-form-failure';
import { announceSession } from '../lib/session-watch';
import styles from './auth-form.module.css';

const FIELDS = ['email', 'password'] as const;

/** The Login modal's form (loaded with zod when the modal first opens). */
export default function LoginForm({ onDone }: { onDone: () => void }) {
  const dispatch = useDispatch();
  const [signIn] = useSignInMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(loginSchema), mode: 'all', defaultValues: { email: '', password: '' } });
  const showFailure = useAuthFormFailure(setError, FIELDS);

  const onSubmit = handleSubmit(async (values) => {
    const result = await signIn(values);
    if (result.error) return showFailure(result.error);
    dispatch(signedIn({ name: result.data.name, email: result.data.email }));
    announceSession('changed');
    onDone();
    toast.success(toastMessages.signInSuccess);
  });

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
        <PasswordField
          label="Password"
          hideLabel
          placeholder="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register('password')}
        />
        <button
          type="button"
          className={`${styles.textButton} ${styles.forgot}`}
          onClick={() => dispatch(openModal('forgot-password'))}
        >
          {accountMessages.forgotPassword}
        </button>
      </div>
      <Button type="submit" fullWidth disabled={isSubmitting}>
        Log In
      </Button>
    </form>
  );
}
