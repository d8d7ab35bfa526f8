import type { MouseEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation } from 'react-router';
import { Button, buttonClassName } from '../../components/ui/button';
import {
  loadLoginForm,
  loadRegisterForm,
  loadSignOut,
  selectIsLoggedIn,
  selectIsRefresh,
  selectUser,
  useLogout,
} from '../../features/auth';
import { openModal } from '../../store';
import { loadAuthModals } from './lazy-auth-modals';
import styles from './header.module.css';

/** A hint (pointer over, focus) that a modal may open: fetch the modals' code and their forms'. */
function preload() {
  void loadAuthModals();
  void loadLoginForm();
  void loadRegisterForm();
}

/** `?next=` the page this is: where the /login and /register pages return to. */
function useReturnQuery(): string {
  const { pathname, search } = useLocation();
  return `?next=${encodeURIComponent(pathname + search)}`;
}

/** A plain click, once the app runs, opens the modal; before that, or with a modifier key, the link goes to the page. */
function plainClick(event: MouseEvent): boolean {
  if (event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  event.preventDefault();
  return true;
}

/**
 * Signed out: "Log in" and "Registration", links to the /login and /register pages that the
 * app turns into the modals (decision 105); signed in: "Welcome {name}" and "Logout".
 */
export function HeaderAuth() {
  const dispatch = useDispatch();
  const isRefresh = useSelector(selectIsRefresh);
  const isLoggedIn = useSelector(selectIsLoggedIn);
  const user = useSelector(selectUser);
  const { logout, isLoggingOut } = useLogout();
  const returnQuery = useReturnQuery();

  // Until the session is known, show neither set of buttons (no flash of "Log in").
  if (isRefresh) return <div className={styles.auth} />;

  if (isLoggedIn) {
    return (
      <div className={styles.auth}>
        <Link to="/account" className={styles.welcome}>
          Welcome {user.name}
        </Link>
        {/* a form the server answers before the app runs, or without it: back to this page (account-form-routes.ts) */}
        <form
          method="post"
          action="/logout"
          onSubmit={(event) => {
            event.preventDefault();
            void logout();
          }}
        >
          <Button
            type="submit"
            variant="ghost"
            className={styles.loginButton}
            disabled={isLoggingOut}
            onPointerEnter={() => void loadSignOut()}
            onFocus={() => void loadSignOut()}
          >
            Logout
          </Button>
        </form>
      </div>
    );
  }

  return (
    <div className={styles.auth} onPointerEnter={preload} onFocus={preload}>
      <Link
        to={`/login${returnQuery}`}
        className={buttonClassName('ghost', false, styles.loginButton)}
        onClick={(event) => plainClick(event) && dispatch(openModal('login'))}
      >
        Log in
      </Link>
      <Link
        to={`/register${returnQuery}`}
        className={buttonClassName('dark', false, styles.registerButton)}
        onClick={(event) => plainClick(event) && dispatch(openModal('register'))}
      >
        Registration
      </Link>
    </div>
  );
}
