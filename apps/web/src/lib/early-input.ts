import { EARLY_INPUT_GLOBAL, type EarlyInput } from '@learnlingo/contract/plain';

const records = () => window as unknown as Record<string, EarlyInput | undefined>;

/** What the page's loader has recorded, taken once (the app replays it): none after that, or on the server. */
export function takeEarlyInput(): EarlyInput | undefined {
  if (typeof window === 'undefined') return undefined;
  const early = records()[EARLY_INPUT_GLOBAL];
  records()[EARLY_INPUT_GLOBAL] = undefined;
  return early;
}

/**
 * Replays what a person typed, picked or ticked before the app was live (issue 28).
 *
 * React hydrates a form control as the browser holds it but never hears a change made before
 * it ran: it starts its value tracking from the control's current value, so its state stays
 * the server's (an empty field, the first option) while the screen shows the person's input,
 * and a submit would send React's. React's own replay of such changes (`enableHydrationChangeEvent`,
 * react#33129) is not in a stable release yet. So the page's loader records each changed control
 * (apps/server/src/plugins/app-loader.ts) and, once the page is live, each is made to tell React
 * again, the way a person's input does:
 *
 * - a text field: through React's tracked `value` setter React believes it holds its default;
 *   the native setter puts the person's text back (caret kept) and an `input` event tells React;
 * - a select: its option is picked again (hydration may have reset it) and a `change` event sent;
 * - a checkbox or radio: React is made to believe the opposite state, and a click puts the
 *   person's back, as their own click would;
 * - the last `type=button` button clicked (nothing happens without the app), or link the app
 *   answers in place ("Load more"; the loader held the browser from following it): clicked again.
 */
export function replayEarlyInput(early: EarlyInput): void {
  let clicked: HTMLButtonElement | HTMLAnchorElement | undefined;
  for (const [control, state] of early) {
    if (!(control instanceof Element) || !control.isConnected) continue;
    if (control instanceof HTMLButtonElement || control instanceof HTMLAnchorElement) clicked = control;
    else if (control instanceof HTMLSelectElement && typeof state === 'string') {
      control.value = state;
      control.dispatchEvent(new Event('change', { bubbles: true }));
    } else if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
      if (typeof state !== 'boolean' || (control.type === 'radio' && !state)) continue;
      control.checked = !state;
      control.click();
    } else if ((control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) && typeof state === 'string') {
      // a field typed on since the page went live has been heard already
      if (control.value === state) retype(control, state);
    }
  }
  // after the fields: the last button only the app answers (a modal, a panel), as if clicked now
  if (clicked && !(clicked instanceof HTMLButtonElement && clicked.disabled)) clicked.click();
}

function retype(control: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const focused = control.ownerDocument.activeElement === control;
  const selection = focused ? [control.selectionStart, control.selectionEnd] : null;
  const nativeValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(control), 'value');
  // React's own setter on the element: its tracker now holds a value other than the person's
  control.value = text === control.defaultValue ? `${text} ` : control.defaultValue;
  nativeValue?.set?.call(control, text);
  control.dispatchEvent(new Event('input', { bubbles: true }));
  if (selection && control.ownerDocument.activeElement === control) {
    try {
      control.setSelectionRange(selection[0] ?? null, selection[1] ?? null);
    } catch {
      // inputs without a caret (number, email in some browsers) refuse a selection: nothing to keep
    }
  }
}
