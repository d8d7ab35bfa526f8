/** The auth feature's public face: the app shell uses these. */
export { RequireAuth } from './components/require-auth';
export { useSessionSync } from './hooks/use-session-sync';
export { useLogout, loadSignOut } from './hooks/use-logout';
export {
  signedIn,
  loggedOut,
  refreshFinished,
  selectUser,
  selectIsLoggedIn,
  selectIsRefresh,
} from './auth-slice';

/** The forms load on demand (with react-hook-form and zod) when a modal first opens. */
export const loadLoginForm = () => import('./components/login-form');
export const loadRegisterForm = () => import('./components/register-form');
