#!/usr/bin/env node
// Single-teacher edits while a server serves the catalogue (issue 23, decision 107).
// PostgreSQL only (127.0.0.1), a scratch database `ll_bench_feed_<count>` of <count> generated
// teachers (made and seeded when missing; kept for the next run unless --drop).
// Two server processes: A and B. The edits are written by this process through the
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
// Usage: node bench/catalogue-edits.mjs [--count 100000] [--duration 20] [--connections 20] [--rate 50] [--writers 8] [--drop]
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { arg, freePort, loadRun, pgReachable, PG_ADMIN, postgresEnv, root, searchIndexBuilt, seed, shuffle, startServer } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const DURATION = Number(arg('duration', 20));
const CONNECTIONS = Number(arg('connections', 20));
const RATE = Number(arg('rate', 50));
const WRITERS = Number(arg('writers', 8));
const DROP = process.argv.includes('--drop');
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

async function main() {
  if (!(await pgReachable())) throw new Error(`PostgreSQL not reachable at ${PG_ADMIN}`);
  const env = await postgresEnv(`ll_bench_feed_${COUNT}`);
  seed(env, COUNT);
  const serverEnv = { ...env, CATALOGUE_CACHE_ENTRIES: '0' };
  const a = await startServer(serverEnv, await freePort());
  const b = await startServer(serverEnv, await freePort());
  const { openDatabase } = await dist('db/client.js');
  const { updateTeacher, generatedTeacherId } = await dist('catalogue/index.js');
  const db = await openDatabase({ engine: 'postgres', url: env.DATABASE_URL, max: WRITERS });
  try {
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
      let writing = edits;
      const started = performance.now();
      let next = 0;
      /** one writer: the next edit when it is due, one at a time */
      const writer = async () => {
        while (writing) {
          const k = next++;
          const wait = started + (k * 1000) / RATE - performance.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          if (!writing) break;
          lessons += 1;
          const edit = { id: generatedTeacherId(1 + Math.floor(Math.random() * COUNT)), lessons, visible: {} };
          const price = facets.prices[Math.floor(Math.random() * facets.prices.length)];
          const writeStarted = performance.now();
          await updateTeacher(db, edit.id, { lessons_done: lessons, price_per_hour: price });
          edit.committed = performance.now();
          edit.writeMs = edit.committed - writeStarted;
          watch.waiting.push(edit);
        }
      };
      const writers = Promise.all(Array.from({ length: edits ? WRITERS : 0 }, writer));
      const result = await loadRun(b, edits ? 'with edits' : 'no edits', paths, { connections: CONNECTIONS, duration: DURATION });
      writing = false;
      await writers;
      // the last edits' visibility
      const deadline = performance.now() + 3000;
      while (watch.waiting.some((e) => Object.keys(e.visible).length < 2) && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await watch.stop();
      return { result, edits: watch.waiting, load: `${loadBefore} → ${load()}` };
    };

    const quiet = await run(false);
    const busy = await run(true);
    const row = (r) =>
      `${r.result.title.padEnd(11)} ${String(r.result.reqPerSec).padStart(6)} req/s  p50 ${r.result.p50} ms  p99 ${r.result.p99} ms  ` +
      `failures ${r.result.failures}  server ${r.result.serverUs} µs/req  postgres ${r.result.postgresUs} µs/req  load avg (1/5/15 min) ${r.load}`;
    console.log(row(quiet));
    console.log(row(busy));
    console.log(`throughput with edits: ${((100 * busy.result.reqPerSec) / quiet.result.reqPerSec).toFixed(1)} % of without`);
    const writes = busy.edits.map((e) => e.writeMs).sort((x, y) => x - y);
    console.log(`${busy.edits.length} edits (${(busy.edits.length / DURATION).toFixed(1)}/s), write p50 ${percentile(writes, 50)?.toFixed(1)} ms p99 ${percentile(writes, 99)?.toFixed(1)} ms`);
    for (const name of ['A', 'B']) {
      const latencies = busy.edits.map((e) => e.visible[name]).filter((ms) => ms !== undefined).sort((x, y) => x - y);
      const missing = busy.edits.length - latencies.length;
      console.log(
        `edit → visible on ${name}: p50 ${percentile(latencies, 50)?.toFixed(0)} ms  p99 ${percentile(latencies, 99)?.toFixed(0)} ms  ` +
          `max ${latencies.at(-1)?.toFixed(0)} ms${missing ? `  (${missing} not seen within 3 s)` : ''}`,
      );
    }
  } finally {
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

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
