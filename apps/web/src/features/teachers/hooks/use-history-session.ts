import { useRef } from 'react';
import type { UpdateOptions } from './use-url-filters';

/**
 * Which control's changes are replacing the last history entry: typing in the search box
 * or stepping through a select with the keyboard adds ONE entry (the first change), and
 * the following changes of the same control replace it, until the user leaves the control.
 */
export function useHistorySession() {
  const active = useRef<string | null>(null);
  return {
    /** the options for a change of this control, continuing its session */
    next(control: string): UpdateOptions {
      const replace = active.current === control;
      active.current = control;
      return { replace };
    },
    end(control?: string) {
      if (control === undefined || active.current === control) active.current = null;
    },
  };
}

export type HistorySession = ReturnType<typeof useHistorySession>;
