import { useState } from 'react';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router';
import { makeStore, type AppStore } from '../store';
import { AppRoutes } from './router';

/**
 * The store and the router. Router updates are not transitions, so that a page whose
 * code is still loading shows the layout's spinner instead of keeping the old page.
 */
export function App({ store }: { store?: AppStore }) {
  const [appStore] = useState(() => store ?? makeStore());
  return (
    <Provider store={appStore}>
      <BrowserRouter useTransitions={false}>
        <AppRoutes />
      </BrowserRouter>
    </Provider>
  );
}
