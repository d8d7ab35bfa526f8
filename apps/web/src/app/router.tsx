import { lazy, type ComponentType } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/auth';
import { Layout } from './layout';
import { RouteErrorBoundary } from './route-error';

/** A page loaded on demand: each module in pages/ exports its page as `Component`. */
function page(load: () => Promise<{ Component: ComponentType }>) {
  const Page = lazy(() => load().then((module) => ({ default: module.Component })));
  return <Page />;
}

/** My lessons and a booking's private link: one page module for both routes. */
const lessonsPage = page(() => import('./pages/lessons-page'));
/** /account and /reset-password: one page module for both routes. */
const accountPages = page(() => import('./pages/account-page'));

/**
 * The one route registry (declarative routing: see docs/decisions/021). Every route sits
 * in the layout, which shows the gold spinner while a page's code loads.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: page(() => import('./pages/home-page')) },
      { path: 'teachers', element: page(() => import('./pages/teachers-page')) },
      { path: 'teachers/:id', element: page(() => import('./pages/teacher-page')) },
      {
        path: 'favorites',
        // signed in only: a visitor is redirected to `/` once the session is known
        element: <RequireAuth />,
        children: [{ index: true, element: page(() => import('./pages/favorites-page')) }],
      },
      // My lessons (signed in only: the page itself sends a visitor to `/`) and a visitor's
      // booking by its private link: one page module, one lazy route in the first load
      { path: 'lessons', element: lessonsPage },
      { path: 'bookings/:token', element: lessonsPage },
      // the account (signed in only: the page itself sends a visitor to `/`) and the page an
      // e-mailed reset link opens: one page module, one lazy route in the first load
      { path: 'account', element: accountPages },
      { path: 'reset-password', element: accountPages },
      { path: '*', element: page(() => import('./pages/not-found-page')) },
    ],
  },
];

function Routes() {
  return useRoutes(routes);
}

/** The routes; a failure while rendering a page or loading its code shows the route error page. */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes />
    </RouteErrorBoundary>
  );
}
