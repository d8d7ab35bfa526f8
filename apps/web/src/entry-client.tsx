import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './styles/global.css';
import { matchRoutes } from 'react-router';
import { App } from './app/app';
import { routes, type RouteHandle } from './app/router';
import { makeStore, type RootState } from './store';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from the page');

/** The store the server rendered the page with (<script id="ssr-state" type="application/json">). */
const stateText = document.getElementById('ssr-state')?.textContent;
const state = stateText ? (JSON.parse(stateText) as Partial<RootState>) : undefined;

if (state) {
  // The server's RTK Query cache (its slice must be in the store before the store is made)
  // and the page's module, so that the page hydrates at once, as the server rendered it.
  const handle = matchRoutes(routes, globalThis.location.pathname)?.at(-1)?.route.handle as RouteHandle | undefined;
  await Promise.all(['api' in state ? import('./lib/api') : undefined, handle?.load()]);
  hydrateRoot(
    root,
    <StrictMode>
      <App store={makeStore(state)} />
    </StrictMode>,
  );
} else {
  // no server rendering (an error page, or Vite's own dev server): the browser renders anew
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
