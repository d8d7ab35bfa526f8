#!/usr/bin/env node
// The server render's floor (issue 9): what one page costs the web app's server entry with
// every API answer canned, in this process — no HTTP, no database, no compression, no
// concurrency. Each page's API answers are asked of a real server once (100,000 teachers
// by default), then served from memory to the entry's `render()` (apps/web/dist-ssr, as
// last built: build first, or leave out --no-build).
// For each page it prints the CPU µs per render (this process, V8's helper threads
// included), the elapsed µs per render, the HTML's size, and, from the V8 profiler over as
// many renders again, where the main thread's time went: inside React's render and flush
// (react-dom/server's performWork and flushCompletedQueues, the app's components and hooks
// included), of that in react-dom's own frames, and in the garbage collector.
// Read against the SSR load target (bench/ssr.mjs, ≥ 1,000 distinct pages/s): Node runs a
// process's JavaScript on one thread, so 1,000 pages/s from one process leave it at most
// 1,000 µs per page for everything (routing, the API, React, compression's JavaScript side,
// the socket).
// Usage: node bench/render.mjs [--count 100000] [--renders 300] [--engine postgres|pglite] [--no-build]
process.env.NODE_ENV = 'production'; // React's production build, as the server runs it

import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, catalogueEnv, ensureBuilt, freePort, pgReachable, root, seed, startServer } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const RENDERS = Number(arg('renders', 300));
const ENGINE = arg('engine', 'postgres');
if (ENGINE !== 'postgres' && ENGINE !== 'pglite') throw new Error('--engine is postgres or pglite');
if (ENGINE === 'postgres' && !(await pgReachable())) throw new Error('PostgreSQL is not reachable: try --engine pglite');
if (!process.argv.includes('--no-build')) ensureBuilt();

const env = await catalogueEnv(ENGINE, COUNT);
seed(env, COUNT);
const server = await startServer({ ...env, HTML_CACHE_MAX: '0' }, await freePort());

/** Each API answer the pages ask for, fetched from the server once. */
const answers = new Map();
async function cannedFetch(request) {
  const url = new URL(request.url);
  const key = url.pathname + url.search;
  let answer = answers.get(key);
  if (!answer) {
    const response = await fetch(server.base + key, { headers: { accept: 'application/json' } });
    answer = { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
    answers.set(key, answer);
  }
  return new Response(answer.body, { status: answer.status, headers: { 'content-type': answer.type } });
}

/** Where React renders a tree (its components run inside it) and writes the markup out. */
const REACT_WORK = new Set(['performWork', 'flushCompletedQueues']);

/**
 * The main thread's sampled time, by where it went (µs, summed over the profiled pass):
 * inside React's render and flush, components included; of that, in react-dom's own frames
 * (the renderer itself); the garbage collector; everything sampled.
 */
function timeByPart(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const underReact = new Map();
  const isUnderReact = (id) => {
    if (underReact.has(id)) return underReact.get(id);
    const { callFrame } = byId.get(id);
    const parent = parentOf.get(id);
    const result = (REACT_WORK.has(callFrame.functionName) && callFrame.url.includes('react-dom')) || (parent !== undefined && isUnderReact(parent));
    underReact.set(id, result);
    return result;
  };
  const parts = { sampled: 0, react: 0, reactDomOwn: 0, gc: 0 };
  profile.samples.forEach((id, i) => {
    // a sample stands for the time until the next one
    const us = profile.timeDeltas[i + 1] ?? 0;
    const { functionName, url } = byId.get(id).callFrame;
    if (functionName === '(idle)') return;
    parts.sampled += us;
    if (functionName === '(garbage collector)') parts.gc += us;
    else if (isUnderReact(id)) {
      parts.react += us;
      if (url.includes('react-dom')) parts.reactDomOwn += us;
    }
  });
  return parts;
}

try {
  const { render } = await import(pathToFileURL(path.join(root, 'apps/web/dist-ssr/entry-server.js')).href);
  const facets = await (await fetch(`${server.base}/api/teachers/facets`)).json();
  const { items } = await (await fetch(`${server.base}/api/teachers?limit=3`)).json();
  const [language = 'English', other = language] = facets.languages;
  const level = facets.levels[0] ?? '';
  const pages = [
    ['home', '/'],
    ['catalogue', '/teachers'],
    ['catalogue, filtered', `/teachers?${new URLSearchParams({ language, level })}`],
    ['catalogue, price order', `/teachers?${new URLSearchParams({ sort: 'price-asc', language: other })}`],
    ...items.map((teacher, i) => [`teacher ${i + 1}`, `/teachers/${encodeURIComponent(teacher.id)}`]),
    ['not found', '/no-such-page'],
  ];
  const request = (url) => ({ url, fetch: cannedFetch, sessionCookie: false, publicOrigin: 'https://learnlingo.example', contactEmail: null });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  // warm-up: every page in turn, so that the first page measured is not the one the JIT learns on
  for (let round = 0; round < 100; round += 1) for (const [, url] of pages) await render(request(url));
  const rows = [];
  for (const [page, url] of pages) {
    const first = await render(request(url));
    if (first.kind !== 'page') throw new Error(`${url}: ${first.kind}`);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < RENDERS; i += 1) await render(request(url));
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    // where the time goes, from a second, profiled pass (the profiler slows what it samples)
    await session.post('Profiler.start');
    for (let i = 0; i < RENDERS; i += 1) await render(request(url));
    const { profile } = await session.post('Profiler.stop');
    const parts = timeByPart(profile);
    const per = (us) => Math.round(us / RENDERS);
    rows.push({
      page,
      url: url.length > 60 ? `${url.slice(0, 57)}…` : url,
      status: first.status,
      htmlKB: Math.round(Buffer.byteLength(first.html) / 100) / 10,
      stateKB: Math.round(Buffer.byteLength(first.state ?? '') / 100) / 10,
      cpuUs: Math.round((used.user + used.system) / RENDERS),
      wallUs: Math.round((wall * 1000) / RENDERS),
      sampledUs: per(parts.sampled),
      reactRenderUs: per(parts.react),
      reactDomOwnUs: per(parts.reactDomOwn),
      gcUs: per(parts.gc),
    });
  }
  session.disconnect();
  console.log(`${ENGINE}, ${COUNT} teachers, ${RENDERS} renders per page, API answers canned in-process`);
  console.table(rows);
  console.log('cpuUs: this process per render (V8 helper threads included); wallUs: elapsed per render (one render at a time);');
  console.log("from the profiled pass, per render: sampledUs on the main thread; reactRenderUs inside React's render and flush,");
  console.log("components included; reactDomOwnUs of that in react-dom's own frames; gcUs in the garbage collector.");
  console.log('1,000 pages/s on one Node process leave its JavaScript thread 1,000 µs per page for everything.');
} finally {
  await server.stop();
}
