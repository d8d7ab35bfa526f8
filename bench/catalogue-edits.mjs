#!/usr/bin/env node
// Single-teacher edits while a server serves the catalogue (issue 23, decision 107).
// PostgreSQL only (127.0.0.1), a scratch database `ll_bench_feed_<count>` of <count> generated
// teachers (made and seeded when missing; kept for the next run unless --drop).
// Two server processes: A and B. The edits are written by this process, in a thread of its own
// (not the load generator's), through the
// catalogue's updateTeacher — the function the school's console (issues 24/25) will call
// on a server; it has no HTTP route yet — at --rate edits per second, up to --writers at
// once (each a random teacher: a new price from the catalogue's steps, and lessons_done
// set to a number above every other, growing with each edit). Meanwhile B serves distinct
// catalogue queries (api.mjs's distinct-query run: every language × level × price, the
// other orders, searches; first and following pages; response cache off) at --connections
// for --duration seconds, and a probe asks A and B every 20 ms for the 50 teachers with the
// most lessons: an edit is visible on a server once its teacher shows its lessons number
// (or a later edit's) there. Printed: edit-to-visible latency p50/p99/max on A and B, and
// B's throughput against the same run without edits, with the load average beside.
// --pairs N runs N (no edits, with edits) pairs back to back, alternating, and prints each
// pair's ratio and the ratio of the sums: on a shared machine one pair swings by tens of percent.
// --pin gives B a core of its own (CPU 0) and puts everything else on CPU 1 — this process (the
// load generator and the writers), A, and PostgreSQL's postmaster and backends (restored to
// every core afterwards; needs the right to set their affinity, e.g. root). On one 2-core box
// the edits' writes otherwise take their CPU from B: the issue's deployment has PostgreSQL and
// the writing server on hosts of their own, and --pin measures what the edits cost the server
// that reads. Both figures are printed by running with and without it.
// Usage: node bench/catalogue-edits.mjs [--count 100000] [--duration 20] [--connections 20] [--rate 50] [--writers 8] [--pairs 1] [--pin] [--drop]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { arg, freePort, loadRun, pgReachable, PG_ADMIN, postgresEnv, root, searchIndexBuilt, seed, shuffle, startServer } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const DURATION = Number(arg('duration', 20));
const CONNECTIONS = Number(arg('connections', 20));
const RATE = Number(arg('rate', 50));
const WRITERS = Number(arg('writers', 8));
const PAIRS = Number(arg('pairs', 1));
const DROP = process.argv.includes('--drop');
const PIN = process.argv.includes('--pin');
const LESSONS_FLOOR = 10_000_000;

const dist = (file) => import(pathToFileURL(path.join(root, 'apps/server/dist', file)).href);

const load = () => os.loadavg().map((n) => n.toFixed(1)).join(' / ');
const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);

/** Catalogue queries, each different (api.mjs's combinations, first and following pages). */
async function distinctPaths(base, facets) {
  const combos = [];
  for (const language of ['', ...facets.languages])
    for (const level of ['', ...facets.levels])
      for (const price of ['', ...facets.prices.slice(0, 8).map(String)]) {
        const q = new URLSearchParams();
        if (language) q.set('language', language);
        if (level) q.set('level', level);
        if (price) q.set('price', price);
        combos.push(q);
      }
  for (const sort of ['price-asc', 'price-desc', 'lessons'])
    for (const language of ['', ...facets.languages]) combos.push(new URLSearchParams({ sort, ...(language && { language }) }));
  for (const q of ['chloe', 'schmit', 'garcia', 'pronunciation', 'grammar', 'exam preparation', 'conversation', 'mei wang'])
    for (const sort of ['', 'price-asc', 'rating']) combos.push(new URLSearchParams({ q, ...(sort && { sort }) }));
  const paths = [];
  let next = 0;
  const walk = async () => {
    while (next < combos.length) {
      const q = combos[next++];
      for (let page = 0; page < 3; page++) {
        const p = `/api/teachers?${q}`;
        paths.push(p);
        const res = await fetch(base + p);
        if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
        const body = await res.json();
        if (!body.nextCursor) break;
        q.set('cursor', body.nextCursor);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, walk));
  return shuffle(paths);
}

/** Sets the CPU affinity of every thread of `pid` (taskset -a). */
const pin = (pid, cpus) => execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });

/** PostgreSQL's postmaster and its children: the parent of this connection's backend. */
async function postgresPids(db) {
  const [{ pid }] = await db.statement('select pg_backend_pid() as pid', []);
  const postmaster = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
  const children = execFileSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  return [postmaster, ...children];
}

/**
 * Asks each server for its 50 teachers with the most lessons every 20 ms: an edit (its
 * teacher, its lessons number) is visible there once that teacher shows that number or
 * more (a later edit of the same teacher).
 */
function probe(servers) {
  const waiting = [];
  const shown = Object.fromEntries(servers.map(({ name }) => [name, new Map()]));
  let running = true;
  const loops = servers.map(async ({ name, base }) => {
    while (running) {
      const res = await fetch(`${base}/api/teachers?sort=lessons&limit=50`);
      const now = performance.now();
      for (const item of (await res.json()).items) shown[name].set(item.id, item.lessons_done);
      for (const edit of waiting) {
        if (edit.visible[name] === undefined && (shown[name].get(edit.id) ?? 0) >= edit.lessons) edit.visible[name] = Math.max(0, now - edit.committed);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return {
    waiting,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/**
 * The writers, in a thread of their own: in production the edits come from another server;
 * here they must not take the load generator's thread (~2 ms of client CPU per edit). Each
 * edit is posted back with its commit time (ms since the epoch); 'stop' ends them.
 */
async function writerThread({ url, count, rate, writers, prices, lessons: from }) {
  const { openDatabase } = await dist('db/client.js');
  const { updateTeacher, generatedTeacherId } = await dist('catalogue/index.js');
  const db = await openDatabase({ engine: 'postgres', url, max: writers });
  let writing = true;
  let lessons = from;
  parentPort.once('message', () => {
    writing = false;
  });
  parentPort.postMessage({ ready: true });
  const started = performance.now();
  let next = 0;
  /** one writer: the next edit when it is due, one at a time */
  const writer = async () => {
    while (writing) {
      const k = next++;
      const wait = started + (k * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (!writing) break;
      lessons += 1;
      const edit = { id: generatedTeacherId(1 + Math.floor(Math.random() * count)), lessons };
      const price = prices[Math.floor(Math.random() * prices.length)];
      const writeStarted = performance.now();
      await updateTeacher(db, edit.id, { lessons_done: edit.lessons, price_per_hour: price });
      const committed = performance.now();
      parentPort.postMessage({ ...edit, writeMs: committed - writeStarted, committed: performance.timeOrigin + committed });
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  await db.close();
  parentPort.postMessage({ done: true, lessons });
}

async function main() {
  if (!(await pgReachable())) throw new Error(`PostgreSQL not reachable at ${PG_ADMIN}`);
  const env = await postgresEnv(`ll_bench_feed_${COUNT}`);
  seed(env, COUNT);
  const serverEnv = { ...env, CATALOGUE_CACHE_ENTRIES: '0' };
  const a = await startServer(serverEnv, await freePort());
  const b = await startServer(serverEnv, await freePort());
  const { openDatabase } = await dist('db/client.js');
  const db = await openDatabase({ engine: 'postgres', url: env.DATABASE_URL, max: 1 });
  const everyCore = `0-${os.availableParallelism() - 1}`;
  let pinnedPostgres = [];
  try {
    if (PIN) {
      pin(b.pid, '0');
      pin(a.pid, '1');
      pin(process.pid, '1');
      pinnedPostgres = await postgresPids(db);
      for (const pid of pinnedPostgres) pin(pid, '1');
      console.log(`pinned: B on CPU 0; A, this process and PostgreSQL (${pinnedPostgres.length} processes) on CPU 1`);
    }
    console.log(`A: search index built in ${await searchIndexBuilt(a)} ms; B: in ${await searchIndexBuilt(b)} ms`);
    const facets = await (await fetch(`${b.base}/api/teachers/facets`)).json();
    const paths = await distinctPaths(b.base, facets);
    console.log(`${COUNT} teachers, ${paths.length} distinct catalogue paths, ${CONNECTIONS} connections, ${DURATION} s per run`);
    const [{ n: top }] = await db.statement('select max(lessons_done)::int as n from teacher', []);
    let lessons = Math.max(LESSONS_FLOOR, top);

    const run = async (edits) => {
      const loadBefore = load();
      const watch = probe([
        { name: 'A', base: a.base },
        { name: 'B', base: b.base },
      ]);
      let stopWriters = () => {};
      // the writers' thread started, its connections open, before the load run begins
      const ready = { resolve: () => {} };
      const started = new Promise((resolve) => {
        ready.resolve = resolve;
      });
      const writers = edits
        ? new Promise((resolve, reject) => {
            const worker = new Worker(new URL(import.meta.url), {
              workerData: { url: env.DATABASE_URL, count: COUNT, rate: RATE, writers: WRITERS, prices: facets.prices, lessons },
            });
            worker.on('message', (message) => {
              if (message.ready) ready.resolve();
              else if (message.done) {
                lessons = message.lessons;
                resolve();
              } else {
                watch.waiting.push({ ...message, committed: message.committed - performance.timeOrigin, visible: {} });
              }
            });
            worker.on('error', reject);
            stopWriters = () => worker.postMessage('stop');
          })
        : Promise.resolve();
      if (edits) await started;
      const result = await loadRun(b, edits ? 'with edits' : 'no edits', paths, { connections: CONNECTIONS, duration: DURATION });
      stopWriters();
      await writers;
      // the last edits' visibility
      const deadline = performance.now() + 3000;
      while (watch.waiting.some((e) => Object.keys(e.visible).length < 2) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await watch.stop();
      return { result, edits: watch.waiting, load: `${loadBefore} → ${load()}` };
    };

    const row = (r) =>
      `${r.result.title.padEnd(11)} ${String(r.result.reqPerSec).padStart(6)} req/s  p50 ${r.result.p50} ms  p99 ${r.result.p99} ms  ` +
      `failures ${r.result.failures}  server ${r.result.serverUs} µs/req  postgres ${r.result.postgresUs} µs/req  ` +
      `bench ${r.result.loaderUs} µs/req  load avg (1/5/15 min) ${r.load}`;
    const quiets = [];
    const busies = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const quiet = await run(false);
      const busy = await run(true);
      quiets.push(quiet);
      busies.push(busy);
      console.log(row(quiet));
      console.log(row(busy));
      console.log(`throughput with edits: ${((100 * busy.result.reqPerSec) / quiet.result.reqPerSec).toFixed(1)} % of without`);
    }
    if (PAIRS > 1) {
      const sum = (runs) => runs.reduce((total, r) => total + r.result.reqPerSec, 0);
      console.log(`${PAIRS} pairs: throughput with edits ${((100 * sum(busies)) / sum(quiets)).toFixed(1)} % of without (sums)`);
    }
    const edits = busies.flatMap((busy) => busy.edits);
    const writes = edits.map((e) => e.writeMs).sort((x, y) => x - y);
    console.log(
      `${edits.length} edits (${(edits.length / DURATION / PAIRS).toFixed(1)}/s), write p50 ${percentile(writes, 50)?.toFixed(1)} ms p99 ${percentile(writes, 99)?.toFixed(1)} ms`,
    );
    for (const name of ['A', 'B']) {
      const latencies = edits.map((e) => e.visible[name]).filter((ms) => ms !== undefined).sort((x, y) => x - y);
      const missing = edits.length - latencies.length;
      console.log(
        `edit → visible on ${name}: p50 ${percentile(latencies, 50)?.toFixed(0)} ms  p99 ${percentile(latencies, 99)?.toFixed(0)} ms  ` +
          `max ${latencies.at(-1)?.toFixed(0)} ms${missing ? `  (${missing} not seen within 3 s)` : ''}`,
      );
    }
  } finally {
    if (PIN) {
      // PostgreSQL's backends forked meanwhile inherited the postmaster's affinity
      for (const pid of await postgresPids(db).catch(() => pinnedPostgres)) {
        try {
          pin(pid, everyCore);
        } catch {
          /* gone */
        }
      }
    }
    await db.close();
    await a.stop();
    await b.stop();
    if (DROP) {
      const admin = new pg.Client({ connectionString: PG_ADMIN });
      await admin.connect();
      await admin.query(`drop database if exists ll_bench_feed_${COUNT} with (force)`);
      await admin.end();
    }
  }
}

if (isMainThread) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
} else {
  writerThread(workerData).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
