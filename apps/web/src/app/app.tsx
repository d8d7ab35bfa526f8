import { useState } from 'react';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router';
import { makeStore, type AppStore } from './store';
import { createAppRouter } from './router';

export function App({ store }: { store?: AppStore }) {
  const [appStore] = useState(() => store ?? makeStore());
  const [router] = useState(createAppRouter);
  return (
    <Provider store={appStore}>
      <RouterProvider router={router} />
    </Provider>
  );
}
