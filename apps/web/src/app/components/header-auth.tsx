import type { MouseEvent } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation } from 'react-router';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { LogInIcon, LogOutIcon } from '../../components/ui/icon';
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

/** A hint (pointer over, focus) that a modal may open: fetch its code and its form's. */
function preload(loadForm: () => Promise<unknown>) {
  void loadAuthModals();
  void loadForm();
}

/** `?next=` the page this is (the /login and /register pages keep their own): where the pages return to. */
function useReturnQuery(): string {
  const { pathname, search } = useLocation();
  if (pathname === '/login' || pathname === '/register') return search;
  const here = pathname + search;
  return here === '/' ? '' : `?next=${encodeURIComponent(here)}`;
}

/** A plain click, once the app runs, opens the modal; before that, or with a modifier key, the link goes to the page. */
function opensModal(open: () => void) {
  return (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    open();
  };
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
        <Button
          variant="ghost"
          className={styles.loginButton}
          disabled={isLoggingOut}
          onPointerEnter={() => void loadSignOut()}
          onFocus={() => void loadSignOut()}
          onClick={() => void logout()}
        >
          <LogOutIcon className={styles.loginIcon} />
          Logout
        </Button>
      </div>
    );
  }

  return (
    <div className={styles.auth}>
      <ButtonLink
        to={`/login${returnQuery}`}
        variant="ghost"
        className={styles.loginButton}
        onPointerEnter={() => preload(loadLoginForm)}
        onFocus={() => preload(loadLoginForm)}
        onClick={opensModal(() => dispatch(openModal('login')))}
      >
        <LogInIcon className={styles.loginIcon} />
        Log in
      </ButtonLink>
      <ButtonLink
        to={`/register${returnQuery}`}
        variant="dark"
        className={styles.registerButton}
        onPointerEnter={() => preload(loadRegisterForm)}
        onFocus={() => preload(loadRegisterForm)}
        onClick={opensModal(() => dispatch(openModal('register')))}
      >
        Registration
      </ButtonLink>
    </div>
  );
}
