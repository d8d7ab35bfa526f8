import { createContext, useContext } from 'react';
import { useRoutes, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/auth';
import { lazyChunk } from '../lib/lazy-chunk';
import { Layout } from './layout';
import { RouteErrorBoundary } from './route-error';
import type { PageModule } from './page-module';

/** What a route's handle says to the server renderer (entry-server.tsx). */
export interface RouteHandle {
  /** the page's module (pages/{module}.tsx): the server links its CSS (Vite's manifest names it so) */
  module: string;
  load: () => Promise<PageModule>;
}

/**
 * A route's page, loaded on demand: the module exports its page as `Component`. The server
 * loads the module (`handle.load`) to prefetch the page's data before rendering it. If its
 * code cannot load, offline goes back to the page the user was on, with a toast (lib/lazy-chunk).
 */
function page(module: string, load: RouteHandle['load']) {
  const Page = lazyChunk(() => load().then((loaded) => ({ default: loaded.Component })), true);
  return { element: <Page />, handle: { module, load } satisfies RouteHandle };
}

/** My lessons, a booking's private link and the booking page: one page module for the three routes. */
const lessonsPage = page('lessons-page', () => import('./pages/lessons-page'));
/** /account and /reset-password: one page module for both routes. */
const accountPages = page('account-page', () => import('./pages/account-page'));
/** /teach and its tabs: a teacher's own pages (the lazy chunk group `staff`). */
const teachPages = page('teach-page', () => import('./pages/teach-page'));
/** /login, /register and /forgot-password, the pages the auth links lead to before (or without) JavaScript: one module. */
const authPages = page('auth-page', () => import('./pages/auth-page'));

/** /admin/* and /invite: one page module (the staff chunk). */
const staffPages = page('admin-page', () => import('./pages/admin-page'));

/**
 * The one route registry (declarative routing: see docs/decisions/021). Every route sits
 * in the layout, which shows the gold spinner while a page's code loads.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, ...page('home-page', () => import('./pages/home-page')) },
      { path: 'teachers', ...page('teachers-page', () => import('./pages/teachers-page')) },
      { path: 'teachers/:id', ...page('teacher-page', () => import('./pages/teacher-page')) },
      { path: 'teachers/:id/book', ...lessonsPage },
      {
        path: 'favorites',
        // signed in only: a visitor is redirected to `/` once the session is known
        element: <RequireAuth />,
        children: [{ index: true, ...page('favorites-page', () => import('./pages/favorites-page')) }],
      },
      // My lessons (signed in only: the page itself sends a visitor to `/`) and a visitor's
      // booking by its private link: one page module, one lazy route in the first load
      { path: 'lessons', ...lessonsPage },
      { path: 'bookings/:token', ...lessonsPage },
      // the account (signed in only: the page itself sends a visitor to `/`) and the page an
      // e-mailed reset link opens: one page module, one lazy route in the first load
      { path: 'account', ...accountPages },
      { path: 'reset-password', ...accountPages },
      { path: 'login', ...authPages },
      { path: 'register', ...authPages },
      { path: 'forgot-password', ...authPages },
      // the school's console (admins only: the page sends a visitor to `/`, anyone else gets the 404)
      // and the page an invitation's link opens: one page module for both (decision 109)
      { path: 'admin/*', ...staffPages },
      { path: 'invite', ...staffPages },
      { path: 'teach/*', ...teachPages },
      { path: '*', ...page('not-found-page', () => import('./pages/not-found-page')) },
    ],
  },
];

/**
 * The table the routes render from: the whole one, or — on the server, which renders one path —
 * that path's cut of it (route-table.ts, decision 136; not in the browser's first load).
 */
export const RouteTable = createContext<RouteObject[]>(routes);

function Routes() {
  return useRoutes(useContext(RouteTable));
}

/** The routes; a failure while rendering a page or loading its code shows the route error page. */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes />
    </RouteErrorBoundary>
  );
}
