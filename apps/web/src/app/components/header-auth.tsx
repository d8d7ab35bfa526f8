import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button';
import { LogInIcon } from '../../components/ui/icon';
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

/** Signed out: "Log in" and "Registration"; signed in: "Welcome {name}" and "Logout". */
export function HeaderAuth() {
  const dispatch = useDispatch();
  const isRefresh = useSelector(selectIsRefresh);
  const isLoggedIn = useSelector(selectIsLoggedIn);
  const user = useSelector(selectUser);
  const { logout, isLoggingOut } = useLogout();

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
          <LogInIcon className={styles.loginIcon} />
          Logout
        </Button>
      </div>
    );
  }

  return (
    <div className={styles.auth}>
      <Button
        variant="ghost"
        className={styles.loginButton}
        onPointerEnter={() => preload(loadLoginForm)}
        onFocus={() => preload(loadLoginForm)}
        onClick={() => dispatch(openModal('login'))}
      >
        <LogInIcon className={styles.loginIcon} />
        Log in
      </Button>
      <Button
        variant="dark"
        className={styles.registerButton}
        onPointerEnter={() => preload(loadRegisterForm)}
        onFocus={() => preload(loadRegisterForm)}
        onClick={() => dispatch(openModal('register'))}
      >
        Registration
      </Button>
    </div>
  );
}
