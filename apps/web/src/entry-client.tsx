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
  // The server's RTK Query cache: its slice must be in the store before the store is made.
  // The page's own code loads meanwhile: React hydrates the page when it has arrived.
  if ('api' in state) await import('./lib/api');
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
