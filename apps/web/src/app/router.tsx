import { useLocation, useRoutes, type RouteObject } from 'react-router';
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

/** A route path's first segment when it is a plain word (`teachers`), lower-cased; else undefined (`:id`, `*`, `x?`, none). */
const PLAIN_WORD = /^[\w.~-]+$/;
function literalHead(path: string | undefined): string | undefined {
  const head = path?.split('/')[0];
  return head !== undefined && PLAIN_WORD.test(head) ? head.toLowerCase() : undefined;
}

/** The words a top-level route's first segment may be (the layout's children's), for routesFor. */
const LITERAL_HEADS = new Set(routes.flatMap((root) => (root.children ?? []).map((child) => literalHead(child.path) ?? '')));
const tablesByHead = new Map<string, RouteObject[]>();

/**
 * The route table for a path, cut to what could match it: the layout with only the children whose
 * first segment is the path's own (`/teachers/t1` keeps `teachers`, `teachers/:id`,
 * `teachers/:id/book`), those that may match any first segment (`*`, a parameter, no path) and,
 * for `/`, the index. React Router's matchRoutes flattens, ranks and compiles a regular
 * expression for every route of the table it is given, on every call (twice per server render,
 * once per location in the browser: ~10 % of a page's server render with the whole table, issue
 * 29); it still does all of the matching and ranking here, on the few routes left. The path's first
 * segment is compared as matchRoutes compares it — decoded, whatever its case; one that is not a
 * plain word, or a path that does not start with one `/`, keeps the whole table.
 */
export function routesFor(pathname: string): RouteObject[] {
  if (!pathname.startsWith('/') || pathname.startsWith('//')) return routes;
  const end = pathname.indexOf('/', 1);
  const raw = end === -1 ? pathname.slice(1) : pathname.slice(1, end);
  let head: string;
  try {
    head = decodeURIComponent(raw);
  } catch {
    return routes;
  }
  if (head !== '' && !PLAIN_WORD.test(head)) return routes;
  // (a word no route has, `*`: only the routes that match any word)
  const key = LITERAL_HEADS.has(head.toLowerCase()) ? head.toLowerCase() : '*';
  let table = tablesByHead.get(key);
  if (!table) {
    // (only the layout's children are cut: a root of another path keeps its own)
    table = routes.map((root) => ({
      ...root,
      children: root.path !== '/' ? root.children : root.children?.filter((child) => {
        if (child.index) return key === '';
        const own = literalHead(child.path);
        return own === undefined || own === key;
      }),
    })) as RouteObject[];
    tablesByHead.set(key, table);
  }
  return table;
}

function Routes() {
  return useRoutes(routesFor(useLocation().pathname));
}

/** The routes; a failure while rendering a page or loading its code shows the route error page. */
export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Routes />
    </RouteErrorBoundary>
  );
}
