import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { makeStore, type AppStore, type RootState } from '../app/store';
import { routes } from '../app/router';

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

/** Renders the whole app (real routes, real store) at a URL. */
export function renderApp(url = '/', { store, preloadedState }: Options = {}) {
  const appStore = store ?? makeStore(preloadedState);
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const view = render(
    <Provider store={appStore}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store: appStore, router, user: userEvent.setup(), ...view };
}
