#!/usr/bin/env node
// First paint to interactive (issue 28): how long a page looks ready before it answers a tap.
// The built app is started on 127.0.0.1 with the real 30-teacher catalogue
// (../shared/data/teachers.json) imported into a temporary DATA_DIR, as bench/page-speed.mjs
// does. For `/`, `/teachers` and one teacher's page, at CPU ×1 and ×4 (DevTools'
// Emulation.setCPUThrottlingRate; no network throttling: the server is local), each of
// `--runs` fresh page loads (a new browser context each) in Playwright's Chromium records:
// - FCP: the `first-contentful-paint` paint timing entry; LCP: the last `largest-contentful-paint`
//   candidate by the time the page is interactive and 500 ms more (what a person saw, beside
//   Lighthouse's simulated LCP);
// - interactive: `performance.now()` when `<html>` gets `data-hydrated` (a MutationObserver
//   in an init script; the app sets it in the first effect after hydration);
// - first paint → interactive, the difference; and first paint → the first of the app's
//   scripts asked for (the loader's wait, decision 092); first paint → the document parsed
//   (DOMContentLoaded, before which the app never runs) and → the entry's script asked for
//   (the loader's start of the app's work);
// - TBT between FCP and interactive: the long tasks (a PerformanceObserver 'longtask' from
//   the init script) that end after FCP and start before interactive, each clipped at FCP,
//   summed as (duration − 50 ms); with their count and the longest.
// It prints each figure's median, then Lighthouse mobile once per page in the same run
// (score, TBT, and the machine's `benchmarkIndex`), and the load average at the start and
// the end. `--trace` also records a Chromium trace of one ×4 load of each page into /tmp and
// names the 5 longest main-thread tasks by what ran in them, and where the main thread's time
// between first paint and interactive went: by trace event (self time) and, for JavaScript,
// by the source it was built from (the sampling profiler's samples, through the build's
// source maps: a library, or a file of the app).
// Nothing is downloaded: Debian's Chromium, the local server only.
//
// `--base DIR` compares with another built checkout of the repository (e.g. a worktree of the
// commit before a change, after its own `npm ci` and `npm run build`): both servers run side
// by side on their own copy of the catalogue, and every run loads the base's page and this
// checkout's in turn (base, this; then this, base; …) so that the machine's load, which moves
// from minute to minute on a shared machine, falls on both alike; Lighthouse likewise, per page.
//
// Usage: node bench/first-tap.mjs [--runs 5] [--no-build] [--chromium /usr/bin/chromium]
//        [--catalogue ../shared/data/teachers.json] [--trace] [--base /path/to/built/checkout] [--compile N] [--no-lighthouse]
//        [--network slow4g]
// `--compile N` (decision 128): N more loads of each page at ×4 with a Chromium trace, which sums
// V8's compiling on the page's main thread between the first paint and interactive.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { arg, buildUnlessNoBuild, lighthouseAuditWithRetry, median, root, startCatalogueServer } from './lib.mjs';

const RUNS = Number(arg('runs', 5));
const CHROMIUM = arg('chromium', '/usr/bin/chromium');
const CATALOGUE = path.resolve(root, arg('catalogue', '../shared/data/teachers.json'));
const TRACE = process.argv.includes('--trace');
// `--compile N`: also N traced loads per page at ×4: V8's compiling on the main thread in the window
const COMPILE_RUNS = Number(arg('compile', 0));
// `--no-lighthouse`: the loads only (a quicker look; the issue's figures need Lighthouse's too)
const LIGHTHOUSE = !process.argv.includes('--no-lighthouse');
const BASE = arg('base', '') ? path.resolve(arg('base', '')) : '';
const RATES = [1, 4];
/**
 * `--network slow4g`: every load also over DevTools' network emulation at Lighthouse's mobile
 * preset's figures (150 ms round trip, 1.6 Mbps down, 750 kbps up), where each request a page
 * makes after another costs a round trip; without it the local server answers at once.
 */
const NETWORK = arg('network', '');
const NETWORKS = { slow4g: { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 750e3 / 8 } };
if (NETWORK && !NETWORKS[NETWORK]) throw new Error(`--network: one of ${Object.keys(NETWORKS).join(', ')}`);
// Issue 28's targets on this machine
const TARGET = { score: 95, tbt: 200, paintToInteractive: 500 };

buildUnlessNoBuild();
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (--chromium PATH)`);
for (const file of ['apps/server/dist/server.js', 'apps/server/dist/cli/import.js', 'apps/web/dist/index.html']) {
  if (BASE && !existsSync(path.join(BASE, file))) throw new Error(`--base ${BASE}: no ${file} (npm ci && npm run build there first)`);
}

// The init script says so on the console once the page is interactive: nothing of
// Playwright's (its injected script that waitForFunction needs) runs in the page meanwhile.
const SIGNAL = 'first-tap: interactive';
// Runs in the page before its own scripts. (A string: it is browser code, not this file's.)
const INIT_SCRIPT = `(() => {
  const t = (window.__firstTap = { interactive: null, longTasks: [], lcp: null });
  const mark = () => {
    if (t.interactive === null && document.documentElement && document.documentElement.hasAttribute('data-hydrated')) {
      t.interactive = performance.now();
      console.debug('${SIGNAL}');
    }
  };
  new MutationObserver(mark).observe(document, { attributes: true, attributeFilter: ['data-hydrated'], subtree: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) t.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) t.lcp = e.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  } catch {}
})();`;

// What the page recorded: FCP, interactive and the long tasks. (Runs in the page; a function,
// as the app's Content-Security-Policy forbids evaluating strings.)
const READ_SCRIPT = () => ({
  fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
  // when the first of the app's scripts was asked for (decision 092's loader starts them after the paint)
  scriptsAsked: Math.min(
    ...performance
      .getEntriesByType('resource')
      .filter((entry) => /\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
      .map((entry) => entry.startTime),
  ),
  // the document parsed (DOMContentLoaded): the entry never runs before it, as React must find the whole page
  parsed: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventStart ?? null,
  // when the loader added the entry's script (its request: the built `index-*.js`), whose running starts the app's work
  entryAsked:
    performance.getEntriesByType('resource').find((entry) => /\/assets\/index-[^/]+\.js$/.test(new URL(entry.name).pathname))?.startTime ?? null,
  interactive: globalThis.__firstTap.interactive,
  longTasks: globalThis.__firstTap.longTasks,
  lcp: globalThis.__firstTap.lcp,
});

/** Opens `url` and resolves once the page is interactive (at most 60 s). */
async function openUntilInteractive(page, url) {
  const interactive = page.waitForEvent('console', { predicate: (m) => m.text() === SIGNAL, timeout: 60_000 });
  await page.goto(url, { waitUntil: 'commit' });
  await interactive;
}

const launch = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

/** One fresh load of `url` at CPU ×`rate`: FCP, interactive and the long tasks between. */
async function load(browser, url, rate) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: INIT_SCRIPT });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    if (NETWORK) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', NETWORKS[NETWORK]);
    }
    await openUntilInteractive(page, url);
    // the long task that made the page interactive is reported after it ends
    await page.waitForTimeout(500);
    const raw = await page.evaluate(READ_SCRIPT);
    if (raw.fcp === null) throw new Error(`${url}: no first-contentful-paint entry`);
    const between = raw.longTasks
      .filter((task) => task.start + task.duration > raw.fcp && task.start < raw.interactive)
      .map((task) => task.start + task.duration - Math.max(task.start, raw.fcp));
    return {
      fcp: raw.fcp,
      lcp: raw.lcp ?? Number.NaN,
      interactive: raw.interactive,
      paintToInteractive: raw.interactive - raw.fcp,
      paintToScripts: raw.scriptsAsked - raw.fcp,
      paintToParsed: raw.parsed === null ? Number.NaN : raw.parsed - raw.fcp,
      paintToEntry: raw.entryAsked === null ? Number.NaN : raw.entryAsked - raw.fcp,
      tbt: between.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
      longTasks: between.length,
      longest: between.length ? Math.max(...between) : 0,
    };
  } finally {
    await context.close();
  }
}

/**
 * The V8 sampling profiler's samples on one thread of a trace (`pid:tid`): each sample's time
 * (trace µs), the time it stands for, and the function on top of the stack with its script.
 */
function profileSamples(events, key) {
  const nodes = new Map();
  const out = [];
  const profiles = new Map(); // profile id → { ts: the last sample's time }
  for (const e of events) {
    if (e.name === 'Profile' && `${e.pid}:${e.tid}` === key) profiles.set(e.id, { ts: e.args?.data?.startTime ?? e.ts });
  }
  const pid = Number(key.split(':')[0]);
  for (const e of events) {
    // (a profile's id is its process's own: another renderer's chunks may carry the same id)
    if (e.name !== 'ProfileChunk' || e.pid !== pid || !profiles.has(e.id)) continue;
    const profile = profiles.get(e.id);
    const { cpuProfile = {}, timeDeltas = [] } = e.args?.data ?? {};
    for (const node of cpuProfile.nodes ?? []) nodes.set(node.id, node.callFrame ?? {});
    (cpuProfile.samples ?? []).forEach((id, i) => {
      const dt = timeDeltas[i] ?? 0;
      profile.ts += dt;
      const frame = nodes.get(id) ?? {};
      const fn = frame.functionName || '(anonymous)';
      const idle = fn === '(idle)' || fn === '(program)' || fn === '(root)';
      const url = frame.url ? frame.url.replace(/^https?:\/\/[^/]+/, '') : fn === '(garbage collector)' ? '(GC)' : '(native)';
      out.push({ ts: profile.ts, dt, fn: `${fn} ${url}${frame.lineNumber >= 0 && frame.url ? `:${frame.lineNumber + 1}` : ''}`, url, idle, frame });
    });
  }
  // a sample stands for the time until the next one
  out.sort((a, b) => a.ts - b.ts);
  for (let i = 0; i < out.length - 1; i += 1) out[i].dt = Math.min(out[i + 1].ts - out[i].ts, 10_000);
  return out.filter((x) => !x.idle);
}

/**
 * One ×4 load of `url` in a fresh context with a Chromium trace (`categories`; written to `file`
 * too when given): the page's timing (READ_SCRIPT, `settle` ms after interactive), the trace's
 * events, and the key (`pid:tid`) of the page's main thread — the CrRendererMain of the process
 * that painted it, or else the one with the most tasks — or null when the trace has none.
 */
async function tracedLoad(browser, url, { categories, file, settle = 0 }) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: INIT_SCRIPT });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await browser.startTracing(page, { ...(file ? { path: file } : {}), categories });
    await openUntilInteractive(page, url);
    if (settle) await page.waitForTimeout(settle);
    const timing = await page.evaluate(READ_SCRIPT);
    const events = JSON.parse((await browser.stopTracing()).toString('utf8')).traceEvents ?? [];
    const runTasks = new Map();
    for (const e of events) if (e.ph === 'X' && e.name === 'RunTask') runTasks.set(`${e.pid}:${e.tid}`, (runTasks.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
    // the renderer that ran the app's scripts, else the one that painted (other renderers:
    // about:blank, workers, the browser's own WebUI pages, which paint too), else the busiest
    const ranApp = events.find((e) => ['v8.compileModule', 'v8.evaluateModule', 'EvaluateScript'].includes(e.name) && JSON.stringify(e.args ?? {}).includes('/assets/'))?.pid;
    const painted = ranApp ?? events.find((e) => e.name === 'firstContentfulPaint')?.pid;
    const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => ({ key: `${e.pid}:${e.tid}`, pid: e.pid }));
    const main = mains.sort((a, b) => Number(b.pid === painted) - Number(a.pid === painted) || (runTasks.get(b.key) ?? 0) - (runTasks.get(a.key) ?? 0))[0]?.key ?? null;
    return { timing, events, main };
  } finally {
    await context.close();
  }
}

/** Each built script's source map (node:module's SourceMap), read once; null when the file has none. */
const sourceMaps = new Map();
function sourceMapOf(file) {
  if (!sourceMaps.has(file)) {
    const mapFile = path.join(root, 'apps/web/dist/assets', `${file}.map`);
    sourceMaps.set(file, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : null);
  }
  return sourceMaps.get(file);
}

/**
 * Where a sampled frame's code came from: the library (`react-dom`, `@reduxjs/toolkit`) or the
 * app's file (`src/lib/head.ts`) that the build made it from; a native frame by its name.
 */
function sourceOf(frame) {
  const file = frame.url?.match(/\/assets\/([^/?#]+\.js)$/)?.[1];
  if (!file) return frame.url ? 'the page (inline)' : `(${(frame.functionName || 'native').replace(/^\((.*)\)$/, '$1')})`;
  const found = sourceMapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber);
  const source = found?.originalSource;
  if (!source) return file;
  const library = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1];
  return library ?? source.replace(/^.*?\/(src\/)/, '$1').replace(/^(?:\.\.\/)+/, '');
}

/**
 * The main thread between first paint (`t0`) and interactive (`t1`), trace µs: self time by
 * trace event (an event's own time, its nested events' taken out; a task's time that no
 * event inside names is "(in tasks, unnamed)"), and the sampled JavaScript's time by source.
 */
function windowBreakdown(events, key, samples, t0, t1) {
  const onMain = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === key && e.dur > 0 && e.ts + e.dur > t0 && e.ts < t1).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const selfTime = new Map();
  const open = [];
  const clipped = (e) => Math.max(0, Math.min(e.ts + e.dur, t1) - Math.max(e.ts, t0));
  for (const e of onMain) {
    while (open.length && open.at(-1).ts + open.at(-1).dur <= e.ts) open.pop();
    const parent = open.at(-1);
    if (parent) selfTime.set(parent, (selfTime.get(parent) ?? 0) - clipped(e));
    selfTime.set(e, (selfTime.get(e) ?? 0) + clipped(e));
    open.push(e);
  }
  const byEvent = new Map();
  for (const [e, us] of selfTime) {
    const name = e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask' ? '(in tasks, unnamed)' : e.name;
    byEvent.set(name, (byEvent.get(name) ?? 0) + us);
  }
  const bySource = new Map();
  for (const sample of samples) if (sample.ts >= t0 && sample.ts <= t1) bySource.set(sourceOf(sample.frame), (bySource.get(sourceOf(sample.frame)) ?? 0) + sample.dt);
  const top = (map, count) => [...map].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, us]) => ({ name, ms: Math.round(us / 1000) }));
  return { ms: Math.round((t1 - t0) / 1000), events: top(byEvent, 10), sources: top(bySource, 12) };
}

/**
 * A trace of one ×4 load of `url`: the 5 longest main-thread tasks, each named by the
 * longest things that ran inside it (script evaluation, function calls with their URL,
 * parsing, layout, timers, events).
 */
async function traceLongTasks(browser, url) {
  const file = path.join(os.tmpdir(), `first-tap-trace-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'toplevel', 'disabled-by-default-v8.cpu_profiler'];
  const { timing, events, main: key } = await tracedLoad(browser, url, { categories, file, settle: 500 });
  if (!key) return { file, timing, tasks: [] };
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'RunTask' && `${e.pid}:${e.tid}` === key);
  const onMain = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === key && e.name !== 'RunTask');
  const label = (e) => {
    const d = e.args?.data ?? {};
    const where = d.url ? ` ${d.url.replace(/^https?:\/\/[^/]+/, '')}${d.lineNumber != null ? `:${d.lineNumber}` : ''}` : '';
    if (e.name === 'FunctionCall') return `FunctionCall ${d.functionName || '(anonymous)'}${where}`;
    if (e.name === 'EventDispatch') return `Event ${d.type}`;
    if (e.name === 'TimerFire') return `Timer ${d.timerId ?? ''}`.trim();
    return `${e.name}${where}`;
  };
  const longest = tasks.sort((a, b) => b.dur - a.dur).slice(0, 5);
  const samples = profileSamples(events, key);
  // trace timestamps (µs, monotonic) against the page's clock: navigationStart's event
  const nav = events.find((e) => e.name === 'navigationStart' && `${e.pid}:${e.tid}` === key);
  const window = nav ? windowBreakdown(events, key, samples, nav.ts + timing.fcp * 1000, nav.ts + timing.interactive * 1000) : null;
  return {
    file,
    timing,
    window,
    tasks: longest.map((task) => {
      const inside = onMain
        .filter((e) => e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e.dur >= 1000)
        .filter((e) => ['EvaluateScript', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'ParseHTML', 'Layout', 'UpdateLayoutTree', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'RunMicrotasks', 'v8.run', 'Paint', 'PrePaint', 'HitTest'].includes(e.name))
        .sort((a, b) => b.dur - a.dur)
        .slice(0, 3)
        .map((e) => `${label(e)} ${(e.dur / 1000).toFixed(0)} ms`);
      // the JavaScript that ran in it, from the sampling profiler: by script and by function
      const inTask = samples.filter((x) => x.ts >= task.ts && x.ts <= task.ts + task.dur);
      const top = (keyOf) => {
        const sums = new Map();
        for (const x of inTask) sums.set(keyOf(x), (sums.get(keyOf(x)) ?? 0) + x.dt);
        return [...sums].sort((a, b) => b[1] - a[1]).filter(([, us]) => us >= 2000).slice(0, 3).map(([k, us]) => `${k} ${(us / 1000).toFixed(0)} ms`);
      };
      return {
        at: nav ? Math.round((task.ts - nav.ts) / 1000) : null,
        ms: Math.round(task.dur / 1000),
        what: inside.join('; ') || '(nothing ≥ 1 ms named inside)',
        scripts: top((x) => x.url).join('; '),
        functions: top((x) => x.fn).join('; '),
      };
    }),
  };
}

/** V8's trace events of compiling on the main thread (lazy compiles of a function on its first call, and their parsing). */
const COMPILE_EVENTS = new Set(['V8.CompileCode', 'V8.CompileLazy', 'V8.ParseFunction', 'V8.PreParse', 'V8.CompileIgnition', 'V8.CompileIgnitionFinalization', 'V8.CompileEval']);

/**
 * One traced ×4 load of `url`: the main thread's time spent compiling JavaScript (COMPILE_EVENTS,
 * self time, nested events not counted twice) between the first paint and interactive, beside
 * that window. A file V8 compiles whole in the background (a compile hint: decision 128) costs
 * the main thread nothing here. The trace itself slows the page: compare builds within a run.
 */
async function compileOnMainThread(browser, url) {
  const categories = ['devtools.timeline', 'v8', 'disabled-by-default-v8.compile', 'loading'];
  const { timing, events, main } = await tracedLoad(browser, url, { categories });
  const fcp = main && events.find((e) => e.name === 'firstContentfulPaint' && String(e.pid) === main.split(':')[0]);
  if (!fcp || !main) throw new Error(`${url}: no first paint or renderer in the trace`);
  // the window on the trace's clock (µs): from the paint's event, as long as the page measured it
  const t0 = fcp.ts;
  const t1 = fcp.ts + (timing.interactive - timing.fcp) * 1000;
  const onMain = events.filter((e) => e.ph === 'X' && `${e.pid}:${e.tid}` === main && e.dur > 0).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  let compiling = 0;
  const open = [];
  for (const e of onMain) {
    while (open.length && open.at(-1).ts + open.at(-1).dur <= e.ts) open.pop();
    // a compile inside a compile is counted once, in the outer one
    const inside = open.some((o) => COMPILE_EVENTS.has(o.name));
    if (COMPILE_EVENTS.has(e.name) && !inside) compiling += Math.max(0, Math.min(e.ts + e.dur, t1) - Math.max(e.ts, t0));
    open.push(e);
  }
  return { window: timing.interactive - timing.fcp, compiling: compiling / 1000 };
}

const ms = (v) => Math.round(v);
const loadStart = os.loadavg();
const server = await startCatalogueServer(CATALOGUE);
let baseServer;
const browser = await launch();
const results = { node: process.version, chromium: browser.version(), runs: RUNS, base: BASE || undefined, network: NETWORK || undefined, loadStart, each: {}, lighthouse: {} };
try {
  // the builds compared: this checkout alone, or the base's and this one's
  baseServer = BASE ? await startCatalogueServer(CATALOGUE, undefined, { checkout: BASE }) : undefined;
  const builds = [...(baseServer ? [{ build: 'base', server: baseServer }] : []), { build: 'this', server }];
  const label = (build, pagePath) => (baseServer ? `${build} ${pagePath}` : pagePath);
  const rows = [];
  // the pages by their place in the list (the teacher's id may differ between the two catalogues)
  for (const [index, pagePath] of server.pages.entries()) {
    // once unmeasured: the server's first render of the page and its caches are not a visitor's
    for (const { server: s } of builds) await load(browser, s.base + s.pages[index], 1);
    for (const rate of RATES) {
      const each = new Map(builds.map(({ build }) => [build, []]));
      for (let run = 1; run <= RUNS; run += 1) {
        // A B, then B A: neither build always goes first
        const order = run % 2 ? builds : [...builds].reverse();
        for (const { build, server: s } of order) {
          const r = await load(browser, s.base + s.pages[index], rate);
          each.get(build).push(r);
          console.log(
            `${label(build, s.pages[index])} ×${rate} run ${run}: FCP ${ms(r.fcp)} ms, LCP ${ms(r.lcp)} ms, interactive ${ms(r.interactive)} ms, paint→interactive ${ms(r.paintToInteractive)} ms (scripts asked at +${ms(r.paintToScripts)}, parsed at +${ms(r.paintToParsed)}, entry at +${ms(r.paintToEntry)}), TBT ${ms(r.tbt)} ms (${r.longTasks} long tasks, longest ${ms(r.longest)} ms)`,
          );
        }
      }
      for (const { build } of builds) {
        const list = each.get(build);
        results.each[`${label(build, pagePath)} x${rate}`] = list;
        const of = (k) => ms(median(list.map((r) => r[k])));
        rows.push({
          ...(baseServer ? { build } : {}),
          page: pagePath,
          CPU: `×${rate}`,
          'FCP ms': of('fcp'),
          'LCP ms': of('lcp'),
          'interactive ms': of('interactive'),
          'paint→interactive ms': of('paintToInteractive'),
          'paint→scripts ms': of('paintToScripts'),
          'paint→parsed ms': of('paintToParsed'),
          'paint→entry ms': of('paintToEntry'),
          'TBT ms': of('tbt'),
          'long tasks': of('longTasks'),
          'longest ms': of('longest'),
        });
      }
    }
  }

  const lhRows = [];
  for (const [index, pagePath] of LIGHTHOUSE ? server.pages.entries() : []) {
    for (const { build, server: s } of builds) {
      const r = await lighthouseAuditWithRetry(s.base + s.pages[index], CHROMIUM);
      results.lighthouse[label(build, pagePath)] = r;
      console.log(`${label(build, pagePath)} Lighthouse mobile: score ${r.score}, TBT ${ms(r.tbt)} ms, FCP ${ms(r.fcp)} ms, LCP ${ms(r.lcp)} ms, benchmarkIndex ${ms(r.benchmarkIndex)}`);
      lhRows.push({
        ...(baseServer ? { build } : {}),
        page: pagePath,
        'Lighthouse score': r.score,
        'LH TBT ms': ms(r.tbt),
        'LH FCP ms': ms(r.fcp),
        'LH LCP ms': ms(r.lcp),
        benchmarkIndex: ms(r.benchmarkIndex),
        version: r.lighthouse,
      });
    }
  }

  const compileRows = [];
  for (const [index, pagePath] of COMPILE_RUNS > 0 ? server.pages.entries() : []) {
    const each = new Map(builds.map(({ build }) => [build, []]));
    for (let run = 1; run <= COMPILE_RUNS; run += 1) {
      for (const { build, server: s } of run % 2 ? builds : [...builds].reverse()) each.get(build).push(await compileOnMainThread(browser, s.base + s.pages[index]));
    }
    for (const { build } of builds) {
      const list = each.get(build);
      results.each[`${label(build, pagePath)} x4 traced`] = list;
      compileRows.push({
        ...(baseServer ? { build } : {}),
        page: pagePath,
        'traced loads': list.length,
        'paint→interactive (traced) ms': ms(median(list.map((r) => r.window))),
        'V8 compiling on the main thread ms': ms(median(list.map((r) => r.compiling))),
      });
    }
  }

  const traces = [];
  for (const pagePath of TRACE ? server.pages : []) traces.push({ page: pagePath, ...(await traceLongTasks(browser, server.base + pagePath)) });
  if (traces.length) results.traces = traces;

  const loadEnd = os.loadavg();
  results.loadEnd = loadEnd;
  const fmt = (l) => l.map((v) => v.toFixed(2)).join(' ');
  const cores = os.cpus().length;
  console.log(`\nFirst paint → interactive, median of ${RUNS} fresh loads, Chromium ${browser.version()} (${CHROMIUM}), the catalogue ${path.relative(root, CATALOGUE)}`);
  if (baseServer) console.log(`base: ${BASE} (its loads alternate with this checkout's, ${root})`);
  if (NETWORK) console.log(`network: ${NETWORK} (${JSON.stringify(NETWORKS[NETWORK])})`);
  console.log(`machine: ${cores} CPUs, load average (1/5/15 min) ${fmt(loadStart)} at start → ${fmt(loadEnd)} at end`);
  console.table(rows);
  console.log(`Lighthouse mobile (once per page${baseServer ? ' and build' : ''}, same run):`);
  console.table(lhRows);
  if (compileRows.length) {
    console.log(`V8 compiling on the main thread between first paint and interactive, CPU ×4, median of ${COMPILE_RUNS} traced loads (tracing slows the page):`);
    console.table(compileRows);
    results.compileRows = compileRows;
  }
  console.log(`Targets (issue 28): Lighthouse ≥ ${TARGET.score}, TBT ≤ ${TARGET.tbt} ms, first paint → interactive ≤ ${TARGET.paintToInteractive} ms at CPU ×4`);
  const who = (row) => (row.build ? `${row.build} ${row.page}` : row.page);
  for (const row of rows.filter((r) => r.CPU === '×4')) {
    const ok = row['paint→interactive ms'] <= TARGET.paintToInteractive;
    const okTbt = row['TBT ms'] <= TARGET.tbt;
    console.log(
      `  ${who(row)} ×4: paint→interactive ${row['paint→interactive ms']} ms ${ok ? 'meets' : 'MISSES'} ≤ ${TARGET.paintToInteractive}; TBT ${row['TBT ms']} ms ${okTbt ? 'meets' : 'MISSES'} ≤ ${TARGET.tbt}`,
    );
  }
  for (const row of lhRows) {
    const okScore = row['Lighthouse score'] >= TARGET.score;
    const okTbt = row['LH TBT ms'] <= TARGET.tbt;
    console.log(
      `  ${who(row)} Lighthouse: ${row['Lighthouse score']} ${okScore ? 'meets' : 'MISSES'} ≥ ${TARGET.score}; TBT ${row['LH TBT ms']} ms ${okTbt ? 'meets' : 'MISSES'} ≤ ${TARGET.tbt} (benchmarkIndex ${row.benchmarkIndex})`,
    );
  }
  for (const trace of traces) {
    console.log(`\nTrace of one ×4 load of ${trace.page} (${trace.file}; tracing slows the page): FCP ${ms(trace.timing.fcp)} ms, interactive ${ms(trace.timing.interactive)} ms; the 5 longest main-thread tasks:`);
    for (const t of trace.tasks) {
      console.log(`  ${t.ms} ms at ${t.at ?? '?'} ms: ${t.what}`);
      if (t.scripts) console.log(`      scripts: ${t.scripts}`);
      if (t.functions) console.log(`      functions (self time): ${t.functions}`);
    }
    if (trace.window) {
      const list = (items) => items.map((x) => `${x.name} ${x.ms}`).join(', ');
      console.log(`  first paint → interactive, ${trace.window.ms} ms on the main thread (ms, self time):`);
      console.log(`      by trace event: ${list(trace.window.events)}`);
      console.log(`      JavaScript by source: ${list(trace.window.sources)}`);
    }
  }
  results.rows = rows;
  results.lighthouseRows = lhRows;
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results', `first-tap-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify(results, null, 2));
  console.log(`written ${path.relative(root, out)}`);
} finally {
  await browser.close();
  await baseServer?.stop();
  await server.stop();
}
