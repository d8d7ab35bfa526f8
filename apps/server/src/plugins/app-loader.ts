import { createHash } from 'node:crypto';
import { EARLY_INPUT_GLOBAL, IN_PLACE_ATTRIBUTE } from '@learnlingo/contract';

/**
 * The app starts after the server-rendered page has painted (decision 092), at once when the
 * page has painted before the loader runs (decision 133). Its modules load with the page
 * (decision 135): the loader sits at the start of the body (decision 134) and adds their
 * modulepreloads, at low priority, as soon as it runs; the entry's script, whose running
 * starts the app's work (module evaluation, hydration), waits for the first paint and for the
 * document to be parsed.
 *
 * The HTML is the whole page; the JavaScript only makes it alive. Evaluated before the first
 * paint, its work would hold the page back. So the built index.html's module script and
 * modulepreloads are moved into an inert `<template>`, and a small inline script adds the
 * preloads at once and the entry once the first contentful paint is on screen (its
 * paint-timing entry, which the browser reports once the frame is presented; then a task), or
 * after 2 s when none comes, or when a tab loaded in the background comes to the front. A
 * browser without paint timing (or whose observer refuses the options) waits for the next
 * frame instead. (The next frame alone is too early: its callback runs before that frame is
 * painted and presented.) Without JavaScript a template is nothing: the page stays as sent.
 *
 * The loader also records the form controls a person changes before the app is live (their
 * latest value, or checked state): React hydrates them as they are but never hears the
 * change, so its state (and what a form would send) is the server's until the app replays
 * them (issue 28). So too the last click on a button that does nothing without the app
 * (`type=button`: Forgot password, a panel's toggle): the app clicks it again once it runs,
 * so the tap is late but not lost. So too a plain click on a link the app answers in place
 * (`a[data-in-place]`: "Load more" adds the next teachers to the list; followed, the link opens
 * them alone): held, clicked again once the app runs, followed if it has not come within 6 s.
 * Other links and forms need no replay: the browser follows them.
 *
 * The loader is inline so that it costs no request; the CSP allows exactly it by its hash.
 */
export const APP_LOADER =
  "(function(){var d=document,t=d.getElementById('app-scripts'),s=0,h,P=window.PerformanceObserver;" +
  // what a person types, picks or ticks before the app is live, by control (EARLY_INPUT_GLOBAL):
  // React does not hear it, and the app replays it once it runs (apps/web/src/lib/early-input.ts)
  `window.${EARLY_INPUT_GLOBAL}=new Map;function r(v){var c=v.target,k=window.${EARLY_INPUT_GLOBAL};` +
  "if(k&&c&&'value'in c)k.set(c,c.type=='checkbox'||c.type=='radio'?c.checked:c.value)}" +
  "d.addEventListener('input',r,true);d.addEventListener('change',r,true);" +
  // and the last button that only the app can answer (type=button: a modal, a panel), or link
  // it answers in place (a[data-in-place]: "Load more" adds the next teachers to the list,
  // where the link alone opens them on their own), clicked while React does not hold it yet,
  // to click again once the page is live. React drops a click on an element it has not
  // hydrated (its code still loading, or its turn not come), and stops it there; one it has
  // hydrated (React's `__reactFiber$` key on the element) it answers itself. A link's plain
  // click is held from the browser, then followed after 6 s if the app has not come by then
  // (its scripts failed). Not a popover's button (the narrow screens' Menu): the browser
  // opens it without the app, and a second click would close it again.
  "function F(e){return Object.keys(e).some(function(x){return x.indexOf('__reactFiber$')==0})}" +
  "d.addEventListener('click',function(v){var c=v.target,k=window." + EARLY_INPUT_GLOBAL + ";" +
  `c=c&&c.closest&&c.closest('button[type=button]:not([popovertarget]),a[${IN_PLACE_ATTRIBUTE}][href]');` +
  'if(!k||!c||F(c))return;' +
  "if(c.tagName=='A'){if(v.button||v.metaKey||v.ctrlKey||v.shiftKey||v.altKey)return;v.preventDefault();h=c;" +
  "setTimeout(function(){if(window." + EARLY_INPUT_GLOBAL + "===k&&h===c&&k.has(c))location.assign(c.href)},6000)}" +
  "k.delete(c);k.set(c,'click')},true);" +
  // React may hydrate the element within that very click (its code is here) and answer it. A
  // click React cannot answer yet it stops at its root, so one that bubbles up to the window
  // on an element React now holds was answered: forgotten, so the app does not answer it twice
  "window.addEventListener('click',function(v){var k=window." + EARLY_INPUT_GLOBAL + ",c=v.target;if(!k||!c)return;" +
  "k.forEach(function(x,e){if(x=='click'&&e.contains&&e.contains(c)&&F(e)){k.delete(e);if(e===h)h=0}})});" +
  // the modules are asked for with the page (modulepreload at low priority: they load while the
  // parser is on the rest of it, and no render waits for them); the entry's script is added at
  // the first paint, and runs once the document is parsed: a module script added by a script
  // runs as soon as it has loaded, and React must find the whole page (decision 135)
  "var f=t&&d.importNode(t.content,true),m=f?[].slice.call(f.querySelectorAll('script')):[];" +
  'm.forEach(function(x){f.removeChild(x)});if(f)d.head.appendChild(f);' +
  "function go(){if(s||!t)return;s=1;function run(){m.forEach(function(x){d.head.appendChild(x)})}" +
  "if(d.readyState=='loading')d.addEventListener('DOMContentLoaded',run);else run()}" +
  'function soon(){setTimeout(go,0)}' +
  // the fallbacks first, so that nothing below can leave the app unloaded: 2 s, and a tab
  // that was in the background (no paint, so no paint entry) coming to the front
  "setTimeout(go,2000);d.addEventListener('visibilitychange',function(){if(!d.hidden)requestAnimationFrame(soon)});" +
  "try{if(!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf('paint')==-1)throw 0;" +
  // a long page is painted before the parser reaches the loader: its paint entry is there
  // already, and the observer would report it only after the page's next frames (decision 133)
  "if(performance.getEntriesByName('first-contentful-paint').length)soon();else " +
  "new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();soon()}}).observe({type:'paint',buffered:true})}" +
  'catch(e){requestAnimationFrame(soon)}})()';

/** The opening tag of the inert template that holds the app's scripts until the loader imports them. */
export const APP_SCRIPTS_TEMPLATE = '<template id="app-scripts">';

/** The CSP source that allows the loader, and no other inline script. */
export const APP_LOADER_CSP_SOURCE = `'sha256-${createHash('sha256').update(APP_LOADER).digest('base64')}'`;

/** `<script type="module" …></script>` and `<link rel="modulepreload" …>` as Vite writes them. */
const APP_SCRIPT_TAG = /\n?[ \t]*(<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>)/g;

/**
 * The built index.html with its module script and modulepreloads moved out of the head into
 * `<template id="app-scripts">` at the start of the body, followed by the loader: it hears a
 * person's input from the first content on (a long page paints long before the parser reaches
 * its end), and asks for the app's modules at the first paint while the parser is still on the
 * rest of the page. Unchanged when it has no module script (the development template, whose
 * scripts Vite serves).
 */
export function deferAppScripts(html: string): string {
  const tags = [...html.matchAll(APP_SCRIPT_TAG)].map((match) => match[1] ?? '');
  if (!tags.some((tag) => tag.startsWith('<script'))) return html;
  const body = BODY_OPENING.exec(html);
  if (!body) return html;
  const start = body.index + body[0].length;
  return (
    html.slice(0, start).replace(APP_SCRIPT_TAG, '') +
    `\n    ${APP_SCRIPTS_TEMPLATE}${tags.join('')}</template>` +
    `<script>${APP_LOADER}</script>` +
    html.slice(start).replace(APP_SCRIPT_TAG, '')
  );
}

/** The body's opening tag (the built index.html's, a fixed file: no attribute holds a `>`). */
const BODY_OPENING = /<body[^>]{0,200}>/;
