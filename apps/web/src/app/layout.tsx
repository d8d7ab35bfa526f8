import { lazy, Suspense, type ReactNode } from 'react';
import { useSelector } from 'react-redux';
import { Outlet, useLocation, useNavigation } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { selectIsRefresh, useSessionRestore } from '../features/auth';
import { AuthModals } from './components/auth-modals';
import { Header } from './components/header';
import styles from './layout.module.css';

// Toasts only ever follow a user action, so react-hot-toast is not part of the first load.
const AppToaster = lazy(() => import('./components/app-toaster'));

function Frame({ children }: { children: ReactNode }) {
  useSessionRestore();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
      <AuthModals />
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </>
  );
}

/**
 * Every route sits in this layout: header + main. Gold spinner while the session is
 * restored or a page loads. The router also renders it (with `hydrating`) as the
 * HydrateFallback while the first page's code loads: the same component in the same
 * place, so the header keeps its state when the page arrives.
 */
export function Layout({ hydrating = false }: { hydrating?: boolean }) {
  const isRefresh = useSelector(selectIsRefresh);
  const navigation = useNavigation();
  const location = useLocation();
  const pageLoading = hydrating || (navigation.state === 'loading' && navigation.location.pathname !== location.pathname);
  let content = <Outlet />;
  if (isRefresh) content = <Spinner label="Restoring your session" />;
  else if (pageLoading) content = <Spinner label="Loading the page" />;
  return <Frame>{content}</Frame>;
}
