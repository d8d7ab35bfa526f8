import type { ReactElement, ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { App } from '../app/app';
import { makeStore, type AppStore, type RootState } from '../store';

interface Options {
  store?: AppStore;
  preloadedState?: Partial<RootState>;
}

/** Renders a component with the real store (no router). */
export function renderWithStore(ui: ReactElement, { store, preloadedState }: Options = {}) {
  const appStore = store ?? makeStore(preloadedState);
  const Wrapper = ({ children }: { children: ReactNode }) => <Provider store={appStore}>{children}</Provider>;
  return { store: appStore, user: userEvent.setup(), ...render(ui, { wrapper: Wrapper }) };
}

/**
 * The browser history as the tests see it: where the app is (`state.location`) and
 * Back/Forward (`navigate(-1)`), like the data router's API the tests were written for.
 */
const browserHistory = {
  get state() {
    const { pathname, search, hash } = window.location;
    return { location: { pathname, search, hash } };
  },
  /** Moves through the history and waits until the app has seen it (popstate). */
  navigate: (delta: number) =>
    act(
      () =>
        new Promise<void>((resolve) => {
          window.addEventListener('popstate', () => resolve(), { once: true });
          window.history.go(delta);
        }),
    ),
};

/** Renders the whole app (the real App: store, browser router, routes) at a URL. */
export function renderApp(url = '/', { store, preloadedState }: Options = {}) {
  const appStore = store ?? makeStore(preloadedState);
  window.history.replaceState(null, '', url);
  const view = render(<App store={appStore} />);
  return { store: appStore, router: browserHistory, user: userEvent.setup(), ...view };
}
