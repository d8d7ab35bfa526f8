import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { Link, useLocation } from 'react-router';
import toast from 'react-hot-toast';
import { accountMessages, loginSchema, toastMessages } from '@learnlingo/contract';
import { openModal } from '../../../store';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { signedIn } from '../auth-slice';
import { useSignInMutation } from '../api/auth-api';
import { PasswordField } from './password-field';
import { useAuthFormFailure } from './use-auth-form-failure';
import { fieldError, usePageForm, type PageForm } from './page-form';
import { announceSession } from '../lib/session-watch';
import styles from './auth-form.module.css';

const FIELDS = ['email', 'password'] as const;

/**
 * The Login modal's form (loaded with zod when the modal first opens); given `page`, the
 * /login page's, which posts to the server (page-form.tsx).
 */
export default function LoginForm({ onDone, page }: { onDone: () => void; page?: PageForm }) {
  const dispatch = useDispatch();
  const [signIn] = useSignInMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm({
    resolver: zodResolver(loginSchema),
    mode: 'all',
    defaultValues: { email: page?.echo?.values.email ?? '', password: '' },
  });
  const showFailure = useAuthFormFailure(setError, FIELDS);
  const asPage = usePageForm(page, handleSubmit);
  // where the Forgot password page's "Log in" leads back to: the /login page's own `next`, or the page under the modal
  const { pathname, search } = useLocation();
  const next = page ? page.hidden.next : pathname + search;
  const forgotQuery = next && next !== '/' ? `?next=${encodeURIComponent(next)}` : '';

  const onSubmit = handleSubmit(async (values) => {
    const result = await signIn(values);
    if (result.error) return showFailure(result.error);
    dispatch(signedIn({ name: result.data.name, email: result.data.email, role: result.data.role }));
    announceSession('changed');
    onDone();
    toast.success(toastMessages.signInSuccess);
  });

  return (
    <form className={styles.form} noValidate onSubmit={asPage.submitAsPage ?? onSubmit} aria-busy={isSubmitting} {...asPage.attributes}>
      {asPage.hidden}
      <div className={styles.fields}>
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
          autoComplete="current-password"
          error={fieldError(errors.password?.message, page, 'password', dirtyFields.password)}
          {...register('password')}
        />
        {/* a link to /forgot-password (decision 105) that the running app turns into the modal */}
        <Link
          to={`/forgot-password${forgotQuery}`}
          className={`${styles.textButton} ${styles.forgot}`}
          onClick={(event) => {
            if (event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            dispatch(openModal('forgot-password'));
          }}
        >
          {accountMessages.forgotPassword}
        </Link>
      </div>
      {asPage.message}
      <Button type="submit" fullWidth disabled={isSubmitting}>
        Log In
      </Button>
    </form>
  );
}
