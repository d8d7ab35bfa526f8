import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './styles/global.css';
import { App } from './app/app';
import { makeStore } from './store';

const root = document.getElementById('root') as HTMLElement;
/** The store the server rendered the page with (<script id="ssr-state" type="application/json">). */
const state = document.getElementById('ssr-state')?.textContent;
// The server's RTK Query cache joins the store with RTK Query, which the page's code brings:
// React hydrates the page once that code has arrived.
const app = (
  <StrictMode>
    <App store={makeStore(state ? JSON.parse(state) : undefined)} />
  </StrictMode>
);
// Without server rendering (the server's error page, Vite alone) the browser renders anew.
// Hydration as a transition: React works in slices of ~5 ms and lets the browser in between
// (a click, a frame) instead of one long task; the page is already on screen meanwhile.
if (state) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);
