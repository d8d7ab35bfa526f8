import { createHash } from 'node:crypto';

/**
 * The app's code starts after the server-rendered page has painted (decision 092).
 *
 * The HTML is the whole page; the JavaScript only makes it alive. Loaded from the head, even
 * at `fetchpriority=low`, its ~100 kB competed with the page for the first seconds of a slow
 * connection, and a browser (or Lighthouse's simulation of one) counted it into the first
 * and largest paint. So the built index.html's module script and modulepreloads are moved
 * into an inert `<template>`, and a small inline script puts them into the head once the
 * first contentful paint is on screen (its paint-timing entry, which the browser reports
 * once the frame is presented; then a task), or after 2 s when none comes, or when a tab
 * loaded in the background comes to the front. A browser without paint timing (or whose
 * observer refuses the options) waits for the next frame instead. (The next
 * frame alone is too early: its callback runs before that frame is painted and presented,
 * so the scripts were asked for 25–60 ms before the paint — e2e/ssr.spec.ts.) Without
 * JavaScript a template is nothing: the page stays as sent.
 *
 * The loader is inline so that it costs no request; the CSP allows exactly it by its hash.
 */
export const APP_LOADER =
  "(function(){var d=document,t=d.getElementById('app-scripts'),s=0,P=window.PerformanceObserver;" +
  'function go(){if(s||!t)return;s=1;d.head.appendChild(d.importNode(t.content,true))}' +
  'function soon(){setTimeout(go,0)}' +
  // the fallbacks first, so that nothing below can leave the app unloaded: 2 s, and a tab
  // that was in the background (no paint, so no paint entry) coming to the front
  "setTimeout(go,2000);d.addEventListener('visibilitychange',function(){if(!d.hidden)requestAnimationFrame(soon)});" +
  "try{if(!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf('paint')==-1)throw 0;" +
  "new P(function(l,o){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();soon()}}).observe({type:'paint',buffered:true})}" +
  'catch(e){requestAnimationFrame(soon)}})()';

/** The CSP source that allows the loader, and no other inline script. */
export const APP_LOADER_CSP_SOURCE = `'sha256-${createHash('sha256').update(APP_LOADER).digest('base64')}'`;

/** `<script type="module" …></script>` and `<link rel="modulepreload" …>` as Vite writes them. */
const APP_SCRIPT_TAG = /\n?[ \t]*(<script type="module"[^>]*><\/script>|<link rel="modulepreload"[^>]*>)/g;

/**
 * The built index.html with its module script and modulepreloads moved out of the head into
 * `<template id="app-scripts">` at the end of the body, followed by the loader. Unchanged
 * when it has no module script (the development template, whose scripts Vite serves).
 */
export function deferAppScripts(html: string): string {
  const tags = [...html.matchAll(APP_SCRIPT_TAG)].map((match) => match[1] ?? '');
  if (!tags.some((tag) => tag.startsWith('<script'))) return html;
  const end = html.lastIndexOf('</body>');
  if (end < 0) return html;
  const withoutTags = html.slice(0, end).replace(APP_SCRIPT_TAG, '');
  return (
    withoutTags +
    `  <template id="app-scripts">${tags.join('')}</template>\n` +
    `    <script>${APP_LOADER}</script>\n  ` +
    html.slice(end)
  );
}
