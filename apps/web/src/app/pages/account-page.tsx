import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useAppSelector } from '../../store';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { selectIsLoggedIn, selectUser } from '../../features/auth';
import {
  accountPageStyles as styles,
  DeleteAccount,
  EmailReminder,
  InvalidResetLink,
  NameForm,
  OtherDevices,
  PasswordForm,
  ResetPasswordForm,
} from '../../features/auth/account';

/** /account is for signed-in users (a visitor is redirected to `/`); the reset page for whoever holds the link. */
export const prefetch: PageModule['prefetch'] = ({ pathname, signedIn }) =>
  Promise.resolve(pathname === '/account' && !signedIn ? 'visitor' : undefined);

/** /account (signed in only; the layout shows its spinner until the session is known): name, password, other devices, deleting the account. */
function AccountPage() {
  const user = useAppSelector(selectUser);
  useHead({ title: 'Account · LearnLingo', noindex: true });
  if (!useAppSelector(selectIsLoggedIn)) return <Navigate to="/" replace />;
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <h1 className={styles.heading}>Account</h1>
        <p className={styles.lead}>{user.email}</p>
        <EmailReminder />
        <NameForm />
        <PasswordForm />
        <OtherDevices />
        <DeleteAccount />
      </div>
    </div>
  );
}

/** The token of an e-mailed link: letters, digits, `-`, `_` (capped before the pattern runs). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;
const TOKEN_MAX = 256;

/** /reset-password?token=…: whoever holds the link sets a new password. */
function ResetPasswordPage() {
  const [search] = useSearchParams();
  useHead({ title: 'Set a new password · LearnLingo', noindex: true });
  const token = search.get('token') ?? '';
  const usable = token.length <= TOKEN_MAX && TOKEN_PATTERN.test(token) && !search.has('error');
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <h1 className={styles.heading}>Set a new password</h1>
        <div className={styles.card}>
          {usable ? <ResetPasswordForm token={token} /> : <InvalidResetLink />}
        </div>
      </div>
    </div>
  );
}

/** /account and /reset-password: one module, so the first page load carries one lazy route for both. */
export function Component() {
  return useLocation().pathname === '/reset-password' ? <ResetPasswordPage /> : <AccountPage />;
}
