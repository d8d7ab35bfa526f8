/**
 * Toasts without react-hot-toast in the first page load: the library (and the
 * Toaster that renders it) is fetched on first use. Lazy modules may import
 * react-hot-toast directly; this is for code that ships with the first load.
 */
type ToastKind = 'success' | 'error' | 'blank';

const load = () => import('react-hot-toast');

export function showToast(kind: ToastKind, message: string): Promise<void> {
  return load().then(({ toast }) => {
    if (kind === 'blank') toast(message);
    else toast[kind](message);
  });
}
