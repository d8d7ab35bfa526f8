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
        // signed in only: a visitor is redirected to `/` once the session is known
        element: <RequireAuth />,
        children: [
          { path: 'favorites', element: page(() => import('./pages/favorites-page')) },
          { path: 'account', element: page(() => import('./pages/account-page')) },
        ],
      },
      { path: 'reset-password', element: page(() => import('./pages/reset-password-page')) },
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
