import { Suspense } from 'react';
import { useSelector } from 'react-redux';
import { lazyChunk } from '../../lib/lazy-chunk';
import { selectOpenModal } from '../../store';

/** The Login and Registration modals' code: fetched when one first opens, or earlier on a hint. */
export const loadAuthModals = () => import('./auth-modals');

const AuthModals = lazyChunk(() => loadAuthModals().then((module) => ({ default: module.AuthModals })));

/** Mounts the auth modals while one is open (ui.modal); their code is not part of the first load. */
export function LazyAuthModals() {
  const modal = useSelector(selectOpenModal);
  if (modal === null) return null;
  return (
    <Suspense fallback={null}>
      <AuthModals />
    </Suspense>
  );
}
