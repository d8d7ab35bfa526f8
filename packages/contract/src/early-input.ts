/**
 * Where the page's inline loader keeps the form controls a person changed before the app ran
 * (`window[EARLY_INPUT_GLOBAL]`: control → its latest value, or checked state), for the app
 * to replay once it is live (issue 28; apps/server/src/plugins/app-loader.ts,
 * apps/web/src/lib/early-input.ts).
 */
export const EARLY_INPUT_GLOBAL = '__earlyInput';

/**
 * The attribute of a link the app answers in place ("Load more" adds the next teachers to the
 * list; followed, the link opens them alone): the loader holds a plain click on it made before
 * the app is live, for the app to answer once it runs.
 */
export const IN_PLACE_ATTRIBUTE = 'data-in-place';

/**
 * A control's state as the loader records it: its value, or for a checkbox or radio whether
 * it is checked; `'click'` for a `type=button` button clicked, or a link the app answers in
 * place (IN_PLACE_ATTRIBUTE) whose following the loader held (the last one clicked is last).
 */
export type EarlyInput = Map<EventTarget, string | boolean>;
