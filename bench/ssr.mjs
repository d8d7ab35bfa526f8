#!/usr/bin/env node
// Server-rendered pages under load (issues 9 and 29; autocannon, 127.0.0.1 only), on 100,000
// teachers. Every request sends a browser's `accept: text/html…` and `accept-encoding: gzip,
// deflate, br, zstd`. In each of `--rounds` rounds (4), for each variant in turn (the order
// alternates between rounds, so that a busier minute of the shared machine falls on each):
//  server A (the HTML cache as shipped, HTML_CACHE_MAX=2000, full of the warm-up's pages:
//    every distinct page is rendered, kept and pushes an older one out; `--html-cache 0`
//    turns the cache off, as this bench did until stop 36): anonymous `/teachers` with distinct
//    filter URLs (language × level × price range × order, and searches) and distinct teacher
//    pages (`/teachers/:id`, ids from the server's own sitemap); no URL comes round twice in
//    the whole run (each run has its own slice). Beside each row: the render floor of the
//    same kind of page (bench/render.mjs's measure: the server entry in a process of its own, with the
//    API's answers canned, no HTTP, no compression, V8's helper threads included), the
//    server's CPU per page by thread (/proc/<pid>/task: the JavaScript thread, V8's helper
//    threads — GC and compiler —, libuv's pool — compression —; cluster workers included),
//    their ratio to the floor (issue 29's target: ≤ 1.5), p99 at `--connections`, and the
//    machine's 1-minute load average before → after. The floor's pages are `--floor` URLs of
//    each kind set aside for it, the same for every row (so that rows and variants compare
//    the same pages: teacher pages differ in their reviews, and each row's own 100 made its
//    floor move by a quarter between rows of the same build), and no load ever asks for
//    them, so none of the load's pages finds its API answers already cached. Beside it, "API
//    µs": the server's CPU per page for answering those pages' API requests (over HTTP, once
//    each, one at a time) — the data a distinct page needs, which the floor has canned — and
//    the ratio to floor + API. `--floor-fetch`: also the floor with the renderer given only
//    `fetch` (the entry's Fetch API path, as before issue 29's in-process `api`);
//  server B (the HTML cache on, as shipped): cached pages (a few hundred URLs visited once
//    before, then repeated).
// Variants: this checkout; with `--before <dir>[,<dir>…]` built checkouts of other commits (e.g. `git
// worktree add /work/x main && cd /work/x && npm ci && npm run build`) first, this one after;
// with `--workers 1,2` this checkout started by dist/start.js with WORKERS=1 and WORKERS=2
// (Node's cluster, README "Running at scale"); with `--html-cache 0,2000` this checkout's server
// A with HTML_CACHE_MAX=0 and =2000 (one value: every variant's server A with it).
// Usage: node bench/ssr.mjs [--count 100000] [--duration 10] [--connections 20] [--rounds 4]
//        [--engine postgres|pglite] [--before <dir>[,<dir>]] [--workers 1,2] [--floor 100] [--no-cached]
//        [--floor-fetch] [--html-cache N[,M]]
//        [--no-build]
// React's production build for the in-process floor, as the server runs it (before any import of it)
process.env.NODE_ENV = 'production';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  arg,
  buildUnlessNoBuild,
  catalogueEnv,
  freePort,
  loadAverage,
  loadRunByThread,
  median,
  PG_ADMIN,
  pgReachable,
  root,
  searchIndexBuilt,
  renderFloor,
  seed,
  shuffle,
  sitemapTeacherPaths,
  startServer,
} from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const DURATION = Number(arg('duration', 10));
const CONNECTIONS = Number(arg('connections', 20));
const ENGINE = arg('engine', 'postgres');
if (ENGINE !== 'postgres' && ENGINE !== 'pglite') throw new Error('--engine is postgres or pglite');
/** rounds: an even number, so that each variant runs first as often as second (the second runs slower) */
const ROUNDS = Number(arg('rounds', 4));
/** URLs of each kind rendered in-process for the floor */
const FLOOR_URLS = Number(arg('floor', 100));
const BEFORE = arg('before', undefined);
const WORKERS = arg('workers', undefined);
/** HTML_CACHE_MAX of the distinct rows' server: unset, as shipped; two values, two variants of this checkout. */
const HTML_CACHES = arg('html-cache', undefined)?.split(',');
const CACHED = !process.argv.includes('--no-cached');
/** Also the floor with the renderer given only `fetch` (the Fetch API path of the entry), after each row. */
const FLOOR_FETCH = process.argv.includes('--floor-fetch');
/** The servers compared: name, built checkout, and cluster workers (start.js) or none (server.js). */
const VARIANTS = BEFORE
  ? [
      // `--before a,b`: several built checkouts, in that order, before this one
      ...BEFORE.split(',').map((dir, i, all) => ({ name: all.length === 1 ? 'before' : `before ${i + 1}`, checkout: path.resolve(dir) })),
      { name: 'after', checkout: root },
    ]
  : WORKERS
    ? WORKERS.split(',').map((n) => ({ name: `${n} process${n === '1' ? '' : 'es'}`, checkout: root, workers: n }))
    : HTML_CACHES && HTML_CACHES.length > 1
      ? HTML_CACHES.map((n) => ({ name: `HTML cache ${n}`, checkout: root, htmlCache: n }))
      : [{ name: 'this', checkout: root }];
/** The distinct rows' server's HTML_CACHE_MAX for a variant (undefined: the server's default). */
const htmlCacheOf = (variant) => variant.htmlCache ?? (HTML_CACHES?.length === 1 ? HTML_CACHES[0] : undefined);
/** What a browser sends for a page (Chromium's Accept and Accept-Encoding): pages come back brotli-compressed. */
const HTML = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
};
/** How many URLs of each kind the cached-pages run repeats. */
const CACHED_SET = 200;

/** Searches as users type them (names, misspelt names, lesson words), as bench/api.mjs. */
const SEARCHES = [
  'chloe', 'schmit', 'muller', 'garcia', 'kovalenko', 'tanaka', 'olivia', 'joao', 'lea dubois', 'mei wang',
  'pronunciation', 'grammar', 'business', 'exam preparation', 'children', 'conversation', 'travel', 'accent',
];

/**
 * Distinct catalogue URLs, each once, in the app's own spelling (contract filtersToSearch:
 * q, sort, language, level, price_min, price_max; the default order left out): every
 * order × language × level × price range, and each search with a few orders and languages.
 */
function catalogueUrls(facets) {
  const urls = [];
  const prices = ['', ...facets.prices.map(String)];
  const ranges = [];
  for (const min of prices) for (const max of prices) if (!min || !max || Number(min) <= Number(max)) ranges.push([min, max]);
  const add = (params) => {
    const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== ''));
    const query = q.toString();
    urls.push(query ? `/teachers?${query}` : '/teachers');
  };
  for (const sort of ['', 'price-asc', 'price-desc', 'lessons'])
    for (const language of ['', ...facets.languages])
      for (const level of ['', ...facets.levels])
        for (const [min, max] of ranges) add({ sort, language, level, price_min: min, price_max: max });
  for (const q of SEARCHES)
    for (const sort of ['', 'rating', 'price-asc'])
      for (const language of ['', ...facets.languages.slice(0, 4)]) add({ q, sort, language });
  return shuffle(urls);
}

const teacherUrls = async (base) => shuffle(await sitemapTeacherPaths(base));

/**
 * What the server answers for a page: status, type, and whether the HTML holds what the
 * page shows (a teacher's name) or only the empty shell the browser fills in.
 */
async function probe(base, pathname, expected) {
  const res = await fetch(base + pathname, { headers: HTML });
  const body = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    encoding: res.headers.get('content-encoding'),
    bytes: body.length,
    rendered: expected ? body.includes(expected) : null,
  };
}

/** Visits each URL once (8 at a time), so the cache holds them. */
async function visit(base, urls) {
  let next = 0;
  const walk = async () => {
    while (next < urls.length) {
      const res = await fetch(base + urls[next++], { headers: HTML });
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, walk));
}

const run = (server, title, paths, headers = HTML) =>
  loadRunByThread(server, title, paths, { connections: CONNECTIONS, duration: DURATION, headers }).then((row) => ({
    ...row,
    // each distinct run has URLs of its own: a URL that came round again says so here
    repeats: row.requests > paths.length ? 'yes' : '',
  }));

const start = (variant, env) =>
  freePort().then((port) =>
    startServer(variant.workers ? { ...env, WORKERS: variant.workers } : env, port, {
      checkout: variant.checkout,
      script: variant.workers ? 'start.js' : 'server.js',
    }),
  );

/** `count` slices of `items`, each its own. */
const slices = (items, count) => Array.from({ length: count }, (_, i) => items.slice(Math.floor((i * items.length) / count), Math.floor(((i + 1) * items.length) / count)));

buildUnlessNoBuild();
if (ENGINE === 'postgres' && !(await pgReachable())) throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN}: try --engine pglite`);
const env = await catalogueEnv(ENGINE, COUNT);
console.log(`\n[${ENGINE}] preparing ${COUNT} teachers…`);
seed(env, COUNT);

// the URLs, from the first variant's server: warm-ups (the last 2,000 of each kind), the
// floor's (the FLOOR_URLS before those), the cached set (the first CACHED_SET), the distinct
// runs (the rest, one slice per run)
let warm;
let cached;
let listSlices;
let pageSlices;
let listFloor;
let pageFloor;
{
  const probeServer = await start(VARIANTS[0], { ...env, HTML_CACHE_MAX: '0' });
  try {
    const facets = await (await fetch(`${probeServer.base}/api/teachers/facets`)).json();
    const catalogue = catalogueUrls(facets);
    const teachers = await teacherUrls(probeServer.base);
    warm = shuffle([...catalogue.slice(-2000), ...teachers.slice(-2000)]);
    cached = shuffle([...catalogue.slice(0, CACHED_SET), ...teachers.slice(0, CACHED_SET)]);
    listFloor = catalogue.slice(-2000 - FLOOR_URLS, -2000);
    pageFloor = teachers.slice(-2000 - FLOOR_URLS, -2000);
    listSlices = slices(catalogue.slice(CACHED_SET, -2000 - FLOOR_URLS), ROUNDS * VARIANTS.length);
    pageSlices = slices(teachers.slice(CACHED_SET, -2000 - FLOOR_URLS), ROUNDS * VARIANTS.length);
    const [first] = (await (await fetch(`${probeServer.base}/api/teachers?limit=1`)).json()).items;
    const one = await (await fetch(`${probeServer.base}/api/teachers/${encodeURIComponent(first.id)}`)).json();
    const checks = {
      '/teachers': await probe(probeServer.base, '/teachers', `${first.name} ${first.surname}`),
      [`/teachers/${first.id}`]: await probe(probeServer.base, `/teachers/${encodeURIComponent(first.id)}`, `${one.name} ${one.surname}`),
      '/no-such-page': await probe(probeServer.base, '/no-such-page'),
    };
    console.table(checks);
  } finally {
    await probeServer.stop();
  }
}

const rows = [];
let runIndex = 0;
for (let round = 1; round <= ROUNDS; round += 1) {
  const order = round % 2 === 1 ? VARIANTS : [...VARIANTS].reverse();
  for (const variant of order) {
    const lists = listSlices[runIndex];
    const pages = pageSlices[runIndex];
    runIndex += 1;
    const tag = `round ${round}, ${variant.name}`;
    const htmlCache = htmlCacheOf(variant);
    const a = await start(variant, htmlCache === undefined ? env : { ...env, HTML_CACHE_MAX: htmlCache });
    try {
      await searchIndexBuilt(a);
      // (several processes: /api/health answered for one; each builds its own search index and
      // warms its own JIT, on the warm-up's searches and pages — give them as long as it takes)
      for (let turn = 0; turn < Number(variant.workers ?? 1); turn += 1) await run(a, `${tag}: warm-up`, warm);
      for (const [kind, urls, sample] of [
        ['/teachers?… distinct', lists, listFloor],
        ['/teachers/:id distinct', pages, pageFloor],
      ]) {
        // the floor of the same kind of pages (their API answers asked of this server once,
        // before), measured just before and just after the load: the mean of the two, so that
        // a busier minute of the shared machine weighs on both figures alike. The sample is
        // the kind's floor set, which no load asks for: the load's pages find no API answer
        // the floor asked for already in the API's cache.
        const before = await renderFloor(variant.checkout, a.base, sample, { serverPid: a.pid });
        const row = await run(a, `${tag}: ${kind}`, urls);
        const after = await renderFloor(variant.checkout, a.base, sample);
        const floorUs = Math.round((before.us + after.us) / 2);
        // the same floor through the entry's Fetch API path (the renderer given `fetch` only)
        const viaFetch = FLOOR_FETCH ? (await renderFloor(variant.checkout, a.base, sample, { fetchOnly: true })).us : undefined;
        const ratio = (floor) => (row.threadsUs === null || !floor ? null : Math.round((row.threadsUs / floor) * 100) / 100);
        rows.push({
          round,
          variant: variant.name,
          kind,
          ...row,
          floorUs,
          floorRange: `${Math.min(before.us, after.us)}–${Math.max(before.us, after.us)}`,
          ratio: ratio(floorUs),
          apiUs: before.apiUs,
          ratioWithApi: before.apiUs === null ? null : ratio(floorUs + before.apiUs),
          ...(viaFetch !== undefined && { floorFetchUs: viaFetch }),
        });
        console.log(JSON.stringify(rows.at(-1)));
      }
    } finally {
      await a.stop();
    }
    if (!CACHED) continue;
    const b = await start(variant, env);
    try {
      await searchIndexBuilt(b);
      await visit(b.base, cached);
      // each process keeps its own HTML cache: a connection is one process's, so the cached set
      // is visited over all of the run's connections first, until every process holds it
      if (variant.workers) for (let turn = 0; turn < Number(variant.workers); turn += 1) await run(b, `${tag}: cached warm-up`, cached);
      const row = await run(b, `${tag}: cached`, cached);
      rows.push({ round, variant: variant.name, kind: `cached (${cached.length} URLs)`, ...row, repeats: '' });
      console.log(JSON.stringify(rows.at(-1)));
    } finally {
      await b.stop();
    }
  }
}

const shown = rows.map((row) => ({
  round: row.round,
  variant: row.variant,
  kind: row.kind,
  'pages/s': row.reqPerSec,
  p99: row.p99,
  failures: row.failures,
  'server µs': row.threadsUs,
  'main µs': row.mainUs,
  'V8 helpers µs': row.v8Us,
  'pool µs': row.poolUs,
  'floor µs': row.floorUs ?? '',
  'floor range': row.floorRange ?? '',
  ratio: row.ratio ?? '',
  'API µs': row.apiUs ?? '',
  'ratio (floor+API)': row.ratioWithApi ?? '',
  ...(FLOOR_FETCH && { 'floor via fetch µs': row.floorFetchUs ?? '' }),
  'PG µs': row.postgresUs,
  load: row.load,
  repeats: row.repeats,
}));
console.log(`\n[${ENGINE}] ${COUNT} teachers, ${CONNECTIONS} connections, ${DURATION}s each, ${ROUNDS} rounds, a browser's Accept and Accept-Encoding`);
console.table(shown);
// medians over the rounds, per variant and kind
const summary = [];
for (const variant of VARIANTS) {
  for (const kind of [...new Set(rows.map((row) => row.kind))]) {
    const of = rows.filter((row) => row.variant === variant.name && row.kind === kind);
    if (of.length === 0) continue;
    const med = (key) => (of.every((row) => typeof row[key] === 'number') ? Math.round(median(of.map((row) => row[key])) * 100) / 100 : '');
    summary.push({
      variant: variant.name,
      kind,
      'pages/s': med('reqPerSec'),
      p99: med('p99'),
      'server µs': med('threadsUs'),
      'main µs': med('mainUs'),
      'V8 helpers µs': med('v8Us'),
      'pool µs': med('poolUs'),
      'floor µs': med('floorUs'),
      ratio: med('ratio'),
      'ratio range': of[0].ratio === undefined ? '' : `${Math.min(...of.map((r) => r.ratio))}–${Math.max(...of.map((r) => r.ratio))}`,
      'API µs': med('apiUs'),
      'ratio (floor+API)': med('ratioWithApi'),
      ...(FLOOR_FETCH && { 'floor via fetch µs': med('floorFetchUs') }),
    });
  }
}
console.log('medians of the rounds (ratio: server CPU per page ÷ the render floor; issue 29 targets ≤ 1.5; ratio (floor+API): ÷ the floor and the server CPU of the page\'s API answers)');
console.table(summary);
console.log(`load average now ${loadAverage()}`);
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const out = path.join(root, 'bench/results', `ssr-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify({ node: process.version, engine: ENGINE, count: COUNT, connections: CONNECTIONS, duration: DURATION, variants: VARIANTS, rows, summary }, null, 2));
console.log(`\nwritten ${path.relative(root, out)}`);
