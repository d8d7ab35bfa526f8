import { Suspense, type ReactNode } from 'react';
import { useSelector } from 'react-redux';
import { Outlet } from 'react-router';
import { Spinner } from '../components/ui/spinner';
import { selectIsRefresh, useSessionSync } from '../features/auth';
import { lazyChunk } from '../lib/lazy-chunk';
import { Footer } from './components/footer';
import { Header } from './components/header';
import { LazyAuthModals } from './components/lazy-auth-modals';
import styles from './layout.module.css';

// Toasts only ever follow a user action, so react-hot-toast is not part of the first load.
const AppToaster = lazyChunk(() => import('./components/app-toaster'));

function Frame({ children }: { children: ReactNode }) {
  useSessionSync();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <LazyAuthModals />
      <Suspense fallback={null}>
        <AppToaster />
      </Suspense>
    </>
  );
}

/**
 * Every route sits in this layout: header + main + footer. Gold spinner while the session is
 * restored or a page's code loads; the header stays (and keeps its state) meanwhile.
 */
export function Layout() {
  const isRefresh = useSelector(selectIsRefresh);
  return (
    <Frame>
      {isRefresh ? (
        <Spinner label="Restoring your session" />
      ) : (
        <Suspense fallback={<Spinner label="Loading the page" />}>
          <Outlet />
        </Suspense>
      )}
    </Frame>
  );
}
