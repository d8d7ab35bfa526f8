#!/usr/bin/env node
// What one single-teacher edit costs (issue 23, decision 107's addendum): --edits updateTeacher
// calls in a row on one connection, each a random teacher of bench/catalogue-edits.mjs's scratch
// database (`ll_bench_feed_<count>`, seeded by that bench), and the CPU of the PostgreSQL backend
// that ran them (from /proc: Linux, PostgreSQL on this host) per edit, with the wall time and
// this process's CPU. --kind price: a new price and lessons number (no searched field: the
// narrow re-projection); text: a new `experience` (the whole re-projection, its words and name).
// --dist: another build of the server to measure (default apps/server/dist).
// Usage: node bench/catalogue-edit-cost.mjs [--count 100000] [--edits 200] [--kind price|text] [--dist apps/server/dist]
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, pgReachable, PG_ADMIN, postgresEnv, root } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const EDITS = Number(arg('edits', 200));
const KIND = arg('kind', 'price');
const DIST = path.resolve(root, arg('dist', 'apps/server/dist'));
const dist = (file) => import(pathToFileURL(path.join(DIST, file)).href);

async function main() {
  if (!(await pgReachable())) throw new Error(`PostgreSQL not reachable at ${PG_ADMIN}`);
  const env = await postgresEnv(`ll_bench_feed_${COUNT}`);
  const { openDatabase } = await dist('db/client.js');
  const { updateTeacher, generatedTeacherId } = await dist('catalogue/index.js');
  const db = await openDatabase({ engine: 'postgres', url: env.DATABASE_URL, max: 1 });
  try {
    const [{ pid, n }] = await db.statement('select pg_backend_pid() as pid, count(*)::int as n from teacher', []);
    if (n < COUNT) throw new Error(`ll_bench_feed_${COUNT} has ${n} teachers: run bench/catalogue-edits.mjs --count ${COUNT} first`);
    const backendMs = () => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10; // USER_HZ 100
    };
    const ownMs = () => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    };
    const [{ top }] = await db.statement('select max(lessons_done)::int as top from teacher', []);
    let lessons = top;
    const backend = backendMs();
    const own = ownMs();
    const started = performance.now();
    for (let i = 0; i < EDITS; i++) {
      const id = generatedTeacherId(1 + Math.floor(Math.random() * COUNT));
      const patch =
        KIND === 'text'
          ? { experience: `Taught ${i % 7} years in ${['Lyon', 'Porto', 'Kyiv'][i % 3]}, then online.` }
          : { lessons_done: ++lessons, price_per_hour: [20, 25, 30, 35, 40][i % 5] };
      await updateTeacher(db, id, patch);
    }
    const per = (ms) => (ms / EDITS).toFixed(2);
    console.log(
      `${KIND}: ${EDITS} edits, wall ${per(performance.now() - started)} ms/edit, PostgreSQL backend CPU ${per(backendMs() - backend)} ms/edit, ` +
        `this process ${per(ownMs() - own)} ms/edit, load avg (1/5/15 min) ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
