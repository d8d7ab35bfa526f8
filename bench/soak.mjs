#!/usr/bin/env node
// A soak run (issue 27, "a server that runs for months"; decision 100): the built server on
// 127.0.0.1 answers --requests page requests over HTTP, each URL different (teachers'
// pages from its sitemap, catalogue filter URLs, unknown paths), every --signed-in'th one
// with a signed-in user's cookie (their pages are never cached). After the start, 10,000
// requests, the middle and the end (and every tenth between), the server collects its
// garbage and reports its heap and RSS; the machine's load average is printed beside.
// Target: the heap after GC flat (±10 %) from 10,000 requests to the last.
//
// The server reports its memory through a preloaded module (written to the system's temp
// folder; the server is started with --expose-gc --require it): on SIGUSR2 it runs a full
// collection and writes process.memoryUsage() to a file. Nothing of it is in the server's
// code: a production server has no way to be asked.
//
// --caches off (default): the HTML cache, the catalogue's response cache and its card cache
// off (HTML_CACHE_MAX=0, CATALOGUE_CACHE_ENTRIES=0, CATALOGUE_CARD_MB=0), so every page is
// rendered and nothing is kept on purpose: what grows is what requests left behind.
// --caches shipped: their defaults, which fill up to their bounds (2,000 pages, 2,000
// answers, 64 MB of cards) during the run.
// Usage: node bench/soak.mjs [--requests 100000] [--engine postgres|pglite] [--count 20000]
//        [--connections 8] [--signed-in 10] [--caches off|shipped] [--no-build]
import autocannon from 'autocannon';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, catalogueEnv, ensureBuilt, freePort, pgReachable, searchIndexBuilt, seed, shuffle, startServer, sitemapTeacherPaths } from './lib.mjs';

const REQUESTS = Number(arg('requests', 100_000));
const ENGINE = arg('engine', 'postgres');
const COUNT = Number(arg('count', 20_000));
const CONNECTIONS = Number(arg('connections', 8));
const SIGNED_IN_EVERY = Number(arg('signed-in', 10));
const CACHES = arg('caches', 'off');
if (ENGINE !== 'postgres' && ENGINE !== 'pglite') throw new Error('--engine is postgres or pglite');
if (CACHES !== 'off' && CACHES !== 'shipped') throw new Error('--caches is off or shipped');
if (!(REQUESTS >= 10_000)) throw new Error('--requests is at least 10000 (the first checkpoint after the start)');
if (ENGINE === 'postgres' && !(await pgReachable())) throw new Error('PostgreSQL is not reachable: try --engine pglite');
if (!process.argv.includes('--no-build')) ensureBuilt();

/** What a browser sends for a page (as bench/ssr.mjs): pages come back brotli-compressed. */
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'accept-encoding': 'gzip, deflate, br, zstd' };
const CACHES_OFF = { HTML_CACHE_MAX: '0', CATALOGUE_CACHE_ENTRIES: '0', CATALOGUE_CARD_MB: '0' };
const SEARCHES = ['pronunciation', 'grammar', 'business', 'exam preparation', 'children', 'conversation', 'travel', 'accent'];

/** The server's memory, on request: a full collection, then process.memoryUsage() into a file. */
const memoryFile = path.join(os.tmpdir(), `learnlingo-soak-${process.pid}.json`);
const probeFile = path.join(os.tmpdir(), `learnlingo-soak-${process.pid}.cjs`);
writeFileSync(
  probeFile,
  `'use strict';
const fs = require('node:fs');
process.on('SIGUSR2', () => {
  global.gc();
  global.gc();
  const { heapUsed, rss, external, arrayBuffers } = process.memoryUsage();
  fs.writeFileSync(${JSON.stringify(`${memoryFile}.tmp`)}, JSON.stringify({ heapUsed, rss, external, arrayBuffers }));
  fs.renameSync(${JSON.stringify(`${memoryFile}.tmp`)}, ${JSON.stringify(memoryFile)});
});
`,
);

async function serverMemory(server) {
  rmSync(memoryFile, { force: true });
  process.kill(server.pid, 'SIGUSR2');
  const deadline = Date.now() + 60_000;
  while (!existsSync(memoryFile)) {
    if (Date.now() > deadline) throw new Error('the server did not report its memory within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return JSON.parse(readFileSync(memoryFile, 'utf8'));
}


/** Distinct catalogue URLs in the app's own spelling (as bench/ssr.mjs): orders × languages × levels × price ranges, and searches. */
function catalogueUrls(facets) {
  const urls = [];
  const prices = ['', ...facets.prices.map(String)];
  const add = (params) => {
    const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== '')).toString();
    urls.push(query ? `/teachers?${query}` : '/teachers');
  };
  for (const sort of ['', 'price-asc', 'price-desc', 'lessons'])
    for (const language of ['', ...facets.languages])
      for (const level of ['', ...facets.levels])
        for (const min of prices) for (const max of prices) if (!min || !max || Number(min) <= Number(max)) add({ sort, language, level, price_min: min, price_max: max });
  for (const q of SEARCHES) for (const language of ['', ...facets.languages]) add({ q, language });
  return urls;
}

/** `count` distinct page URLs: teachers' pages and catalogue URLs, then unknown paths (the not-found page) to make up the number. */
async function distinctUrls(base, count) {
  const facets = await (await fetch(`${base}/api/teachers/facets`)).json();
  const urls = [...new Set([...(await sitemapTeacherPaths(base)), ...catalogueUrls(facets)])];
  for (let i = 0; urls.length < count; i += 1) urls.push(`/no-such-page-${i}`);
  return shuffle(urls).slice(0, count);
}

/** Signs up a user over HTTP (from this port's own origin) and returns its session cookie. */
async function signedInCookie(base, n) {
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ name: `Soak ${n}`, email: `soak-${process.pid}-${Date.now()}-${n}@example.com`, password: 'soak-pass-1' }),
  });
  if (!res.ok) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

const MB = (bytes) => Math.round(bytes / 1e5) / 10;
const load = () => os.loadavg().map((n) => n.toFixed(2)).join(' ');

const env = await catalogueEnv(ENGINE, COUNT);
seed(env, COUNT);
process.env.BENCH_NODE_ARGS = [process.env.BENCH_NODE_ARGS ?? '', '--expose-gc', '--require', probeFile].join(' ').trim();
const server = await startServer({ ...env, ...(CACHES === 'off' ? CACHES_OFF : {}) }, await freePort());
const rows = [];
try {
  // what is built once (the search index) is built before the start
  await searchIndexBuilt(server);
  const urls = await distinctUrls(server.base, REQUESTS);
  const cookies = [await signedInCookie(server.base, 1), await signedInCookie(server.base, 2), await signedInCookie(server.base, 3)];
  const checkpoints = [...new Set([10_000, Math.round(REQUESTS / 2), ...Array.from({ length: 10 }, (_, k) => Math.round((REQUESTS * (k + 1)) / 10))])]
    .filter((n) => n >= 10_000 && n <= REQUESTS)
    .sort((a, b) => a - b);
  const row = async (done, run) => {
    const memory = await serverMemory(server);
    rows.push({
      requests: done,
      heapAfterGcMB: MB(memory.heapUsed),
      rssMB: MB(memory.rss),
      externalMB: MB(memory.external),
      'load (1, 5, 15 min)': load(),
      reqPerSec: run ? Math.round(run.requests.average) : null,
      p99ms: run ? run.latency.p99 : null,
      'non-2xx': run ? run.non2xx : null,
      errors: run ? run.errors + run.timeouts : null,
    });
    console.log(rows.at(-1));
  };
  await row(0);
  let done = 0;
  for (const checkpoint of checkpoints) {
    const amount = checkpoint - done;
    let i = done;
    const run = await autocannon({
      url: server.base,
      connections: CONNECTIONS,
      amount,
      headers: HTML,
      requests: [
        {
          setupRequest: (req) => {
            const n = i++;
            const cookie = n % SIGNED_IN_EVERY === 0 ? { cookie: cookies[n % cookies.length] } : {};
            return { ...req, path: urls[n % urls.length], headers: { ...req.headers, ...cookie } };
          },
        },
      ],
    });
    done = checkpoint;
    await row(done, run);
  }
  const at10k = rows.find((r) => r.requests === 10_000);
  const last = rows.at(-1);
  console.log(
    `\n${ENGINE}, ${COUNT} teachers, ${REQUESTS} requests (${urls.length} distinct URLs; every ${SIGNED_IN_EVERY}th signed in, as one of 3 users), ` +
      `${CONNECTIONS} connections, caches ${CACHES}; ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  console.table(rows);
  const change = ((last.heapAfterGcMB - at10k.heapAfterGcMB) / at10k.heapAfterGcMB) * 100;
  console.log(`heap after GC from 10,000 requests to ${REQUESTS}: ${at10k.heapAfterGcMB} → ${last.heapAfterGcMB} MB (${change >= 0 ? '+' : ''}${change.toFixed(1)} %; target ±10 %)`);
  console.log('non-2xx: the not-found pages (404) and redirects (3xx); errors: connection errors and timeouts.');
} finally {
  await server.stop();
  rmSync(probeFile, { force: true });
  rmSync(memoryFile, { force: true });
}
