import { Navigate, useLocation, useSearchParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppSelector } from '../../store';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { selectIsLoggedIn, selectUser } from '../../features/auth';
import {
  accountPageStyles as styles,
  authApi,
  DeleteAccount,
  EmailReminder,
  formEchoed,
  EmailStatus,
  type ConfirmationReturn,
  InvalidResetLink,
  NameForm,
  OtherDevices,
  PasswordForm,
  ResetPasswordForm,
} from '../../features/auth/account';

/** The token of an e-mailed link: letters, digits, `-`, `_` (capped before the pattern runs). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]+$/;
const TOKEN_MAX = 256;

/** The reset link's token, when the URL holds one that may be one (and no error from better-auth). */
function resetToken(search: URLSearchParams): string | null {
  const token = search.get('token') ?? '';
  return token.length <= TOKEN_MAX && TOKEN_PATTERN.test(token) && !search.has('error') ? token : null;
}

/**
 * /account is for signed-in users (a visitor is redirected to `/`). The reset page is for
 * whoever holds the link: without a token, or with one already used or expired, it answers
 * 404 and says so at once (the server asks better-auth), instead of after the form is filled.
 */
export const prefetch: PageModule['prefetch'] = async ({ dispatch, pathname, searchParams, signedIn, form }) => {
  // a form posted without JavaScript that the server answered with this page (account-form-routes.ts)
  if (form) dispatch(formEchoed(form));
  if (pathname === '/account') {
    if (!signedIn) return 'visitor';
    // whether the address is confirmed is in the page from the start
    await dispatch(authApi.endpoints.getSession.initiate());
    return undefined;
  }
  const token = resetToken(searchParams);
  if (token === null) return 'not-found';
  const check = await dispatch(authApi.endpoints.checkResetLink.initiate(token));
  // (a check that failed is no answer: the form stays, and says so if the link does not work)
  return check.data === false ? 'not-found' : undefined;
};

/** Back from the e-mailed confirmation link (EMAIL_CONFIRMED_PATH), and whether better-auth refused it. */
function confirmationReturn(search: URLSearchParams): ConfirmationReturn {
  if (search.get('email') !== 'confirmed') return null;
  return search.has('error') ? 'failed' : 'confirmed';
}

/** /account (signed in only; the layout shows its spinner until the session is known): name, password, other devices, deleting the account. */
function AccountPage() {
  const user = useAppSelector(selectUser);
  const [search] = useSearchParams();
  useHead({ title: 'Account · LearnLingo', noindex: true });
  if (!useAppSelector(selectIsLoggedIn)) return <Navigate to="/" replace />;
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <h1 className={styles.heading}>Account</h1>
        <EmailStatus email={user.email} />
        <EmailReminder returned={confirmationReturn(search)} />
        <NameForm />
        <PasswordForm />
        <OtherDevices />
        <DeleteAccount />
      </div>
    </div>
  );
}

/** /reset-password?token=…: whoever holds the link sets a new password. */
function ResetPasswordPage() {
  const [search] = useSearchParams();
  useHead({ title: 'Set a new password · LearnLingo', noindex: true });
  const token = resetToken(search);
  // the server's check, when it rendered this page (read from the cache, never asked by the browser)
  const checked = authApi.endpoints.checkResetLink.useQueryState(token ?? skipToken).data;
  const echo = useAppSelector((state) => state.formEcho?.echo);
  const usable = token !== null && checked !== false;
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <h1 className={styles.heading}>Set a new password</h1>
        <div className={styles.card}>
          {usable ? <ResetPasswordForm token={token} echo={echo?.form === 'reset-password' ? echo : undefined} /> : <InvalidResetLink />}
        </div>
      </div>
    </div>
  );
}

/** /account and /reset-password: one module, so the first page load carries one lazy route for both. */
export function Component() {
  return useLocation().pathname === '/reset-password' ? <ResetPasswordPage /> : <AccountPage />;
}
