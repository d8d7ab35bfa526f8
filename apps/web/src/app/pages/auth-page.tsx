import { useLocation } from 'react-router';
import type { PageModule } from '../page-module';
import { AuthPage, formEchoed } from '../../features/auth/auth-page';

/** A refused post (no JavaScript) is rendered again with what was typed and the errors. */
export const prefetch: PageModule['prefetch'] = ({ dispatch, form }) => {
  if (form) dispatch(formEchoed(form));
  return Promise.resolve(undefined);
};

/** /login, /register and /forgot-password: one page module for the three routes. */
export function Component() {
  const { pathname } = useLocation();
  return <AuthPage form={pathname === '/register' ? 'register' : pathname === '/forgot-password' ? 'forgot-password' : 'login'} />;
}
