import { Toaster } from 'react-hot-toast';
// the handling of a lazy chunk that fails to load: it loads with the toaster at start, so that
// it is there when the network is gone (lib/lazy-chunk imports it on a failure)
import '../../lib/chunk-failure';
import { toastLimits } from '@learnlingo/contract/plain';

/**
 * Toasts top right, 20 px in, at most 350 px wide, the original's durations. Loaded after first paint.
 * They sit over the header's account buttons, so they let clicks through (and a pointer resting
 * on those buttons does not pause them forever); screen readers get them as live regions.
 */
export default function AppToaster() {
  return (
    <Toaster
      position="top-right"
      containerStyle={{ top: toastLimits.offsetPx, right: toastLimits.offsetPx, left: toastLimits.offsetPx, bottom: toastLimits.offsetPx }}
      toastOptions={{
        duration: toastLimits.durationMs,
        success: { duration: toastLimits.successDurationMs },
        style: { maxWidth: toastLimits.maxWidthPx, color: 'var(--color-main-black)', pointerEvents: 'none' },
      }}
    />
  );
}
