import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './styles/global.css';
import { App } from './app/app';
import { makeStore, type RootState } from './store';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from the page');

/** The store the server rendered the page with (<script id="ssr-state" type="application/json">). */
const stateText = document.getElementById('ssr-state')?.textContent;
const state = stateText ? (JSON.parse(stateText) as Partial<RootState>) : undefined;

if (state) {
  // The server's RTK Query cache joins the store with RTK Query, which the page's code
  // brings: React hydrates the page when that code has arrived.
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
