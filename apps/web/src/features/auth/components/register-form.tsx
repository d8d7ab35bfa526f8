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
import { fieldError, usePageForm, type PageForm } from './page-form';
import { announceSession } from '../lib/session-watch';
import styles from './auth-form.module.css';

const FIELDS = ['name', 'email', 'password'] as const;

/**
 * The Registration modal's form (loaded with zod when the modal first opens); given `page`,
 * the /register page's, which posts to the server (page-form.tsx).
 */
export default function RegisterForm({ onDone, page }: { onDone: () => void; page?: PageForm }) {
  const dispatch = useDispatch();
  const [signUp] = useSignUpMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm({
    resolver: zodResolver(registerSchema),
    mode: 'all',
    defaultValues: { name: page?.echo?.values.name ?? '', email: page?.echo?.values.email ?? '', password: '' },
  });
  const showFailure = useAuthFormFailure(setError, FIELDS);
  const asPage = usePageForm(page, handleSubmit);

  const onSubmit = handleSubmit(async (values) => {
    const result = await signUp(values);
    if (result.error) return showFailure(result.error);
    dispatch(signedIn({ name: result.data.name, email: result.data.email, role: result.data.role }));
    announceSession('changed');
    onDone();
    toast.success(toastMessages.signUpSuccess);
  });

  return (
    <form className={styles.form} noValidate onSubmit={asPage.submitAsPage ?? onSubmit} aria-busy={isSubmitting} {...asPage.attributes}>
      {asPage.hidden}
      <div className={styles.fields}>
        <TextField
          label="Name"
          placeholder="Name"
          autoComplete="name"
          error={fieldError(errors.name?.message, page, 'name', dirtyFields.name)}
          // in the server's HTML too (register sets the value only once hydrated)
          defaultValue={page?.echo?.values.name}
          {...register('name')}
        />
        <TextField
          label="Email"
          placeholder="Email"
          type="email"
          autoComplete="email"
          error={fieldError(errors.email?.message, page, 'email', dirtyFields.email)}
          // in the server's HTML too (register sets the value only once hydrated)
          defaultValue={page?.echo?.values.email}
          {...register('email')}
        />
        <PasswordField
          label="Password"
          placeholder="Password"
          autoComplete="new-password"
          error={fieldError(errors.password?.message, page, 'password', dirtyFields.password)}
          {...register('password')}
        />
      </div>
      {asPage.message}
      <Button type="submit" fullWidth disabled={isSubmitting}>
        Registration
      </Button>
    </form>
  );
}
