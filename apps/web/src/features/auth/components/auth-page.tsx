import { Link, useNavigate, useSearchParams } from 'react-router';
import { accountMessages, returnPath, TEACHER_ID_MAX, TEACHER_ID_PATTERN, toastMessages } from '@learnlingo/contract/plain';
import { useAppSelector } from '../../../store';
import { useHead } from '../../../lib/head';
import { FORGOT_PASSWORD_TEXT, LOGIN_TEXT, REGISTER_TEXT } from '../auth-texts';
import { selectIsLoggedIn, selectUser } from '../auth-slice';
import '../form-echo-slice';
import LoginForm from './login-form';
import RegisterForm from './register-form';
import ForgotPasswordForm from './forgot-password-form';
import styles from './auth-page.module.css';

const PAGES = {
  login: { title: 'Login', text: LOGIN_TEXT, Form: LoginForm, other: 'register', question: 'Don’t have an account?', action: 'Registration' },
  register: { title: 'Registration', text: REGISTER_TEXT, Form: RegisterForm, other: 'login', question: 'Already have an account?', action: 'Log in' },
  'forgot-password': {
    title: 'Forgot password',
    text: FORGOT_PASSWORD_TEXT,
    Form: ForgotPasswordForm,
    other: 'login',
    question: 'Remembered it?',
    action: 'Log in',
  },
} as const;

/** The page's hidden fields from its URL: where to go back to, and the teacher whose heart led here. */
function useHiddenFields() {
  const [search] = useSearchParams();
  let next = returnPath(search.get('next')) ?? '/';
  // the header's links on this page point here again: go back where the first one came from
  if (/^\/(login|register|forgot-password)(\?|$)/.test(next)) next = returnPath(new URLSearchParams(next.split('?')[1]).get('next')) ?? '/';
  const favorite = search.get('favorite') ?? '';
  const hidden: Record<string, string> = {};
  if (next !== '/') hidden.next = next;
  if (favorite.length <= TEACHER_ID_MAX && TEACHER_ID_PATTERN.test(favorite)) hidden.favorite = favorite;
  return { next, hidden };
}

/**
 * /login, /register and /forgot-password (decision 105): the modals' forms on a page of their own, which post
 * to the server and work before the app hydrates and without JavaScript. The header's links
 * lead here; with JavaScript they open the modals instead.
 */
export function AuthPage({ form }: { form: keyof typeof PAGES }) {
  const page = PAGES[form];
  const { next, hidden } = useHiddenFields();
  // only Log in and Registration add the teacher a heart asked for
  if (form === 'forgot-password') delete hidden.favorite;
  const navigate = useNavigate();
  const echo = useAppSelector((state) => state.formEcho?.echo ?? null);
  // back from a new password set without the app (account-form-routes.ts: /login?reset=done)
  const [search] = useSearchParams();
  const passwordReset = form === 'login' && search.get('reset') === 'done';
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const user = useAppSelector(selectUser);
  useHead({ title: `${page.title} · LearnLingo`, description: page.text, noindex: true });
  const query = new URLSearchParams(hidden).toString();

  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <section className={styles.card} aria-labelledby="auth-page-title">
          <h1 id="auth-page-title" className={styles.heading}>
            {page.title}
          </h1>
          <p className={styles.text}>{page.text}</p>
          {isLoggedIn ? (
            <p>
              You are signed in as {user.name}. <Link to={next}>Go back</Link>
            </p>
          ) : (
            <>
              {hidden.favorite && !echo && (
                <p role="status" className={styles.notice}>
                  {toastMessages.needAuth}
                </p>
              )}
              {/* a new password set from an e-mailed link without the app (account-form-routes.ts) */}
              {passwordReset && (
                <p role="status" className={styles.done}>
                  {accountMessages.passwordReset}
                </p>
              )}
              <page.Form
                onDone={() => void navigate(next)}
                page={{ action: `/${form}`, hidden, echo: echo?.form === form ? echo : null }}
              />
              {/* once the link is sent, "Back to Log In" says it already */}
              {!(form === 'forgot-password' && echo?.sent) && (
                <p className={styles.switch}>
                  {page.question}
                  <Link to={`/${page.other}${query ? `?${query}` : ''}`}>{page.action}</Link>
                </p>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}
