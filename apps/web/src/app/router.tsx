import { createBrowserRouter, type RouteObject } from 'react-router';
import { RequireAuth } from '../features/auth';
import { Layout } from './layout';
import { RouteError } from './route-error';

/** The one route registry. Pages are lazy: each module exports `Component`. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    hydrateFallbackElement: <Layout hydrating />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: () => import('./pages/home-page') },
      { path: 'teachers', lazy: () => import('./pages/teachers-page') },
      { path: 'teachers/:id', lazy: () => import('./pages/teacher-page') },
      {
        path: 'favorites',
        // signed in only: a visitor is redirected to `/` once the session is known
        element: <RequireAuth />,
        children: [{ index: true, lazy: () => import('./pages/favorites-page') }],
      },
      { path: '*', lazy: () => import('./pages/not-found-page') },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
