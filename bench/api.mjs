#!/usr/bin/env node
// API load benchmark (autocannon, 127.0.0.1 only).
// For each engine (PGlite, PostgreSQL when reachable) with 100,000 teachers, measures in ONE
// server run: a constant-JSON route (the ceiling), GET /api/teachers with filters repeated
// (the same query), and GET /api/teachers with distinct queries (every request a new
// filter/limit combination, so no cache can answer).
// Usage: node bench/api.mjs [--count 100000] [--duration 10] [--connections 20] [--engine pglite|postgres]
import autocannon from 'autocannon';
import postgres from 'postgres';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchData, ensureBuilt, root, seed, startServer } from './lib.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const COUNT = Number(arg('count', 100_000));
const DURATION = Number(arg('duration', 10));
const CONNECTIONS = Number(arg('connections', 20));
const ONLY = arg('engine', undefined);
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const LANGUAGES = ['English', 'Spanish', 'French', 'German', 'Italian', 'Mandarin Chinese', 'Japanese', 'Korean', 'Portuguese', 'Arabic', 'Ukrainian', 'Polish'];
const LEVELS = ['', 'A1 Beginner', 'A2 Elementary', 'B1 Intermediate', 'B2 Upper-Intermediate', 'C1 Advanced', 'C2 Proficient'];
const PRICES = ['', '20', '25', '30', '35', '40', '45', '50', '60'];

function distinctPaths() {
  const paths = [];
  for (let limit = 1; limit <= 50; limit++)
    for (const language of LANGUAGES)
      for (const level of LEVELS)
        for (const price of PRICES) {
          const q = new URLSearchParams({ language, limit: String(limit) });
          if (level) q.set('level', level);
          if (price) q.set('price', price);
          paths.push(`/api/teachers?${q}`);
        }
  // Shuffle deterministically so consecutive requests differ in every field.
  let s = 42;
  for (let i = paths.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return paths;
}

async function load(base, title, paths) {
  let i = 0;
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  return {
    title,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: bad,
  };
}

async function benchEngine(engine) {
  let env;
  if (engine === 'pglite') {
    env = { DATA_DIR: path.join(benchData, `pglite-${COUNT}`), DATABASE_URL: '' };
  } else {
    const dbName = `ll_bench_${COUNT}`;
    const admin = postgres(PG_ADMIN, { max: 1, onnotice: () => {} });
    try {
      const exists = await admin`select 1 from pg_database where datname = ${dbName}`;
      if (exists.length === 0) await admin.unsafe(`create database ${dbName}`);
    } finally {
      await admin.end();
    }
    const url = new URL(PG_ADMIN);
    url.pathname = `/${dbName}`;
    env = { DATABASE_URL: url.toString(), AUTH_SECRET: 'bench-secret-bench-secret-bench-secret' };
  }
  console.log(`\n[${engine}] preparing ${COUNT} teachers…`);
  seed(env, COUNT);
  const server = await startServer(env, 3900 + (engine === 'pglite' ? 1 : 2));
  try {
    const repeated = ['/api/teachers?language=French&level=B1%20Intermediate&price=40'];
    const rows = [];
    // warm-up, then the three measurements in the same server run
    await load(server.base, 'warm-up', distinctPaths().slice(0, 500));
    rows.push(await load(server.base, 'constant JSON (/api/version)', ['/api/version']));
    rows.push(await load(server.base, 'teachers, repeated query', repeated));
    rows.push(await load(server.base, 'teachers, distinct queries', distinctPaths()));
    const ceiling = rows[0].reqPerSec;
    for (const r of rows) r.ofCeiling = `${Math.round((r.reqPerSec / ceiling) * 100)}%`;
    console.log(`[${engine}] ${COUNT} teachers, ${CONNECTIONS} connections, ${DURATION}s each`);
    console.table(rows);
    return { engine, count: COUNT, connections: CONNECTIONS, duration: DURATION, rows };
  } finally {
    await server.stop();
  }
}

async function pgReachable() {
  const sql = postgres(PG_ADMIN, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

ensureBuilt();
const engines = ONLY ? [ONLY] : ['pglite', 'postgres'];
const results = [];
for (const engine of engines) {
  if (engine === 'postgres' && !(await pgReachable())) {
    console.log(`[postgres] not reachable at ${PG_ADMIN}: skipped`);
    continue;
  }
  results.push(await benchEngine(engine));
}
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const out = path.join(root, 'bench/results', `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify({ node: process.version, results }, null, 2));
console.log(`\nwritten ${path.relative(root, out)}`);
