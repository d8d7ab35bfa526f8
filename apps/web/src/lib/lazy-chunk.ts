import { createElement, lazy, type ComponentType } from 'react';

/**
 * React.lazy for code that may fail to load: offline, or an old tab whose file names a
 * redeploy removed. Instead of the route error page, lib/chunk-failure tells the user they
 * are offline (going `back` to the page they were on, for a page; a fresh lazy component then
 * tries the code again at the next render) or reloads the page once. Kept tiny: it is part
 * of the first load (docs/decisions/091).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own bound: any props
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>, back?: boolean) {
  const make = () =>
    lazy(() =>
      load().catch((error: unknown) =>
        // the handling loads with the toaster at start, so it is there offline; if even that failed, wait
        import('./chunk-failure').then((handle) => handle.chunkFailed<{ default: T }>(error, () => (current = make()), back), never),
      ),
    );
  let current = make();
  return (props: T extends ComponentType<infer P> ? P : never) => createElement(current, props);
}

const never = () => new Promise<never>(() => {});
