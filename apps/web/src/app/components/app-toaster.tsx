import { Toaster } from 'react-hot-toast';
import { toastLimits } from '@learnlingo/contract/plain';

/** Toasts top right, 20 px in, at most 350 px wide, the original's durations. Loaded after first paint. */
export default function AppToaster() {
  return (
    <Toaster
      position="top-right"
      containerStyle={{ top: toastLimits.offsetPx, right: toastLimits.offsetPx, left: toastLimits.offsetPx, bottom: toastLimits.offsetPx }}
      toastOptions={{
        duration: toastLimits.durationMs,
        success: { duration: toastLimits.successDurationMs },
        style: { maxWidth: toastLimits.maxWidthPx, color: 'var(--color-main-black)' },
      }}
    />
  );
}
