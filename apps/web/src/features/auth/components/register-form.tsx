import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import toast from 'react-hot-toast';
import { registerSchema, toastMessages } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { signedIn } from '../auth-slice';
import { useSignUpMutation } from '../api/auth-api';
import { PasswordField } from './password-field';
import { useAuthFormFailure } from './use-auth-form-failure';
import { announceSession } from '../lib/session-watch';
import styles from './auth-form.module.css';

const FIELDS = ['name', 'email', 'password'] as const;

/** The Registration modal's form (loaded with zod when the modal first opens). */
export default function RegisterForm({ onDone }: { onDone: () => void }) {
  const dispatch = useDispatch();
  const [signUp] = useSignUpMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(registerSchema),
    mode: 'all',
    defaultValues: { name: '', email: '', password: '' },
  });
  const showFailure = useAuthFormFailure(setError, FIELDS);

  const onSubmit = handleSubmit(async (values) => {
    const result = await signUp(values);
    if (result.error) return showFailure(result.error);
    dispatch(signedIn({ name: result.data.name, email: result.data.email }));
    announceSession('changed');
    onDone();
    toast.success(toastMessages.signUpSuccess);
  });

  return (
    <form className={styles.form} noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
      <div className={styles.fields}>
        <TextField
          label="Name"
          hideLabel
          placeholder="Name"
          autoComplete="name"
          error={errors.name?.message}
          {...register('name')}
        />
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
          autoComplete="new-password"
          error={errors.password?.message}
          {...register('password')}
        />
      </div>
      <Button type="submit" fullWidth disabled={isSubmitting}>
        Registration
      </Button>
    </form>
  );
}
