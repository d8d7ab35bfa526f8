import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './msw-server';

// Lazy chunks (pages, forms, toaster) load on first use; give findBy* room on a busy machine.
configure({ asyncUtilTimeout: 4000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  cleanup();
  // A modal still open unmounts here and takes its history entry off (history.back(), see
  // components/ui/modal.tsx): wait until it has, before the next test sets its own URL.
  await Promise.resolve();
  if ((window.history.state as Record<string, unknown> | null)?.learnlingoModal) {
    await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
  }
  server.resetHandlers();
  localStorage.clear();
  document.body.style.overflow = '';
});
afterAll(() => server.close());

// A console.error during a test fails it: React warnings and unexpected errors are bugs.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error during test: ${args.map(String).join(' ')}`);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

// jsdom lacks these; the app uses them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
window.scrollTo = () => {};

// #modal-root exists in index.html; tests get one too.
beforeEach(() => {
  if (!document.getElementById('modal-root')) {
    const el = document.createElement('div');
    el.id = 'modal-root';
    document.body.appendChild(el);
  }
});

// jsdom has no viewport and no CSS modules: tests see the wide-screen header, where the
// header's popover menu is an ordinary row (header.module.css from 768 px), not hidden
// (!important: jsdom ranks its own default style by specificity, not below the page's).
const wideScreen = document.createElement('style');
wideScreen.textContent = '[popover] { display: block !important; }';
document.head.appendChild(wideScreen);
