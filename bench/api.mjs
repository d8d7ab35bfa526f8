#!/usr/bin/env node
// API load benchmark (autocannon, 127.0.0.1 only).
// For each engine (PGlite, PostgreSQL when reachable) with 100,000 teachers:
//  run A (the server as shipped): a constant-JSON route (the ceiling) and GET /api/teachers
//    with filters, the same query repeated (the in-process cache answers);
//  run B (CATALOGUE_CACHE_ENTRIES=0, so every request reaches the database): the ceiling
//    again and GET /api/teachers with distinct queries — every language × level × price
//    combination (and none) with the app's page size, first pages and the following pages
//    through real cursors (the rating order, as before issue 11); then the mixed load of
//    issue 11: those, plus every other order × language × level × price range, plus
//    searches (names, misspelt names, lesson words, with orders and filters), all shuffled;
//    the mixed load again while one more client asks for the searches one after another (their
//    p50 and p99 inside the mixed load: searchProbe; autocannon reports all its requests
//    together); and the searches alone (their own p99).
// Each row also gives the CPU µs per request of the server, PostgreSQL and the load generator.
// Usage: node bench/api.mjs [--count 100000] [--duration 10] [--connections 20] [--engine pglite|postgres] [--pool N] [--lesson-reviews R]
//        [--database NAME] (PostgreSQL: a database of this name instead of ll_bench_<count>[_r<R>], e.g. a
//        branch's own while its migrations differ from main's: the shared one must not get them first)
//        [--checkout DIR] (the server of another built checkout, e.g. the commit before a change, on the same database)
//        [--no-seed] (the database as it is: no seed step, e.g. between the runs of an A/B pair)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  arg,
  catalogueEnv,
  ensureBuilt,
  postgresEnv,
  loadRun,
  PG_ADMIN,
  pgReachable,
  root,
  searchIndexBuilt,
  seed,
  shuffle,
  startServer,
} from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const DURATION = Number(arg('duration', 10));
const CONNECTIONS = Number(arg('connections', 20));
const ONLY = arg('engine', undefined);
const POOL = arg('pool', undefined); // DATABASE_POOL_SIZE for the PostgreSQL server (default: the server's)
// reviewed past lessons per teacher on top of the generated (imported) reviews, ~4 a teacher:
// 6 gives ~1,000,000 reviews for 100,000 teachers (issue 26; a database of its own)
const LESSON_REVIEWS = Number(arg('lesson-reviews', 0));
const DATABASE = arg('database', undefined);
const CHECKOUT = arg('checkout', undefined);
const NO_SEED = process.argv.includes('--no-seed');
if (DATABASE !== undefined && !/^ll_bench_[a-z0-9_]{1,40}$/.test(DATABASE)) throw new Error('--database: ll_bench_ and lowercase letters, digits, _');

/** Every filter combination of the rating order (the catalogue before issue 11). */
function ratingCombos(facets) {
  const combos = [];
  for (const language of ['', ...facets.languages])
    for (const level of ['', ...facets.levels])
      for (const price of ['', ...facets.prices.map(String)]) {
        const q = new URLSearchParams();
        if (language) q.set('language', language);
        if (level) q.set('level', level);
        if (price) q.set('price', price);
        combos.push(q);
      }
  return combos;
}

/** The other orders × language × level × a price range (issue 11). */
function sortCombos(facets) {
  const combos = [];
  const prices = facets.prices;
  const ranges = [
    ['', ''],
    [String(prices[2] ?? ''), ''],
    ['', String(prices[4] ?? '')],
    [String(prices[1] ?? ''), String(prices[6] ?? '')],
  ];
  for (const sort of ['price-asc', 'price-desc', 'lessons'])
    for (const language of ['', ...facets.languages])
      for (const level of ['', ...facets.levels])
        for (const [min, max] of ranges) {
          const q = new URLSearchParams({ sort });
          if (language) q.set('language', language);
          if (level) q.set('level', level);
          if (min) q.set('price_min', min);
          if (max) q.set('price_max', max);
          combos.push(q);
        }
  return combos;
}

/** Searches as users type them: names, accent-less and misspelt names, words of the lessons. */
const SEARCHES = [
  'chloe', 'schmit', 'muller', 'garcia', 'kovalenko', 'tanaka', 'olivia', 'joao', 'lea dubois', 'mei wang',
  'pronunciation', 'grammar', 'business', 'exam preparation', 'children', 'conversation', 'travel', 'accent',
  'spanish grammar', 'japanese', 'homework', 'chlo', 'shevchenko', 'nowak',
];

/** Each search in a few orders and with a few filters. */
function searchCombos(facets) {
  const combos = [];
  for (const q of SEARCHES)
    for (const sort of ['', 'price-asc', 'rating'])
      for (const filter of ['', `language=${facets.languages[0]}`, `price_max=${facets.prices[4] ?? ''}`]) {
        const query = new URLSearchParams(filter);
        query.set('q', q);
        if (sort) query.set('sort', sort);
        combos.push(query);
      }
  return combos;
}

/** Each combination's pages (up to `pages` each), with the cursors the server hands out; shuffled. */
async function distinctPaths(base, combos, pages = 6) {
  const PAGES = pages;
  const paths = [];
  let next = 0;
  const walk = async () => {
    while (next < combos.length) {
      const q = combos[next++];
      for (let page = 0; page < PAGES; page++) {
        const path = `/api/teachers?${q}`;
        paths.push(path);
        const res = await fetch(base + path);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        const body = await res.json();
        if (!body.nextCursor) break;
        q.set('cursor', body.nextCursor);
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, walk));
  return shuffle(paths);
}

/** One autocannon run of these paths (lib.mjs's loadRun), at this script's connections and duration. */
const load = (server, title, paths) => loadRun(server, title, paths, { connections: CONNECTIONS, duration: DURATION });

/**
 * The latency of these paths while `during` runs: one more client asks for them one after
 * another (Node's fetch, its own connection) until `during` settles. For "a search's p99"
 * inside the mixed load, which autocannon reports for all its requests together.
 */
async function probe(base, paths, during) {
  let done = false;
  during.finally(() => (done = true));
  const times = [];
  for (let i = 0; !done; i++) {
    const start = performance.now();
    const res = await fetch(base + paths[i % paths.length]);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${paths[i % paths.length]}: ${res.status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN);
  return { requests: times.length, p50: at(0.5), p99: at(0.99) };
}

async function benchEngine(engine) {
  const env =
    engine === 'postgres' && DATABASE ? await postgresEnv(DATABASE) : await catalogueEnv(engine, LESSON_REVIEWS > 0 ? `${COUNT}_r${LESSON_REVIEWS}` : COUNT);
  if (engine === 'postgres' && POOL) env.DATABASE_POOL_SIZE = POOL;
  console.log(`\n[${engine}] preparing ${COUNT} teachers${LESSON_REVIEWS > 0 ? ` with ${LESSON_REVIEWS} reviewed lessons each` : ''}…`);
  if (!NO_SEED) seed(env, COUNT, LESSON_REVIEWS > 0 ? ['--lesson-reviews', String(LESSON_REVIEWS)] : []);
  const port = 3900 + (engine === 'pglite' ? 1 : 2);
  const rows = [];
  const repeated = ['/api/teachers?language=French&level=B1%20Intermediate&price=40'];
  const a = await startServer(env, port, CHECKOUT ? { checkout: path.resolve(CHECKOUT) } : {});
  let distinct;
  let mixed;
  let searches;
  try {
    const facets = await (await fetch(`${a.base}/api/teachers/facets`)).json();
    distinct = await distinctPaths(a.base, ratingCombos(facets));
    const sorted = await distinctPaths(a.base, sortCombos(facets), 3);
    searches = await distinctPaths(a.base, searchCombos(facets), 3);
    mixed = shuffle([...distinct, ...sorted, ...searches]);
    // the searches above began the search index's build: not under the rows below
    console.log(`[${engine}] A: search index built in ${await searchIndexBuilt(a, searches[0])} ms`);
    await load(a, 'warm-up', distinct.slice(0, 2000));
    const ceiling = await load(a, 'A: constant JSON (/api/version)', ['/api/version']);
    const hit = await load(a, 'A: teachers, repeated query', repeated);
    hit.ofCeiling = `${Math.round((hit.reqPerSec / ceiling.reqPerSec) * 100)}%`;
    ceiling.ofCeiling = '100%';
    rows.push(ceiling, hit);
  } finally {
    await a.stop();
  }
  const b = await startServer({ ...env, CATALOGUE_CACHE_ENTRIES: '0' }, port, CHECKOUT ? { checkout: path.resolve(CHECKOUT) } : {});
  try {
    // the server builds its search index (decisions 094, 095) once per catalogue version,
    // in the background from the first search (~2–4 s on PostgreSQL, ~8 s on PGlite for
    // 100,000 teachers): waited for, so the rows measure the steady state after it
    console.log(`[${engine}] B: search index built in ${await searchIndexBuilt(b, searches[0])} ms`);
    await load(b, 'warm-up', [...distinct.slice(0, 2000), ...searches]);
    const ceiling = await load(b, 'B: constant JSON (/api/version)', ['/api/version']);
    const miss = await load(b, `B: teachers, distinct queries (${distinct.length} URLs, no cache)`, distinct);
    const mixedRow = await load(b, `B: teachers, distinct mixed: orders, ranges, searches (${mixed.length} URLs)`, mixed);
    const probed = load(b, 'B: the mixed load again, with one more client asking for the searches', mixed);
    const searchProbe = await probe(b.base, shuffle([...searches]), probed);
    const probedRow = await probed;
    probedRow.searchProbe = `${searchProbe.requests} searches: p50 ${searchProbe.p50}, p99 ${searchProbe.p99} ms`;
    const searchRow = await load(b, `B: teachers, searches only (${searches.length} URLs)`, searches);
    ceiling.ofCeiling = '100%';
    for (const row of [miss, mixedRow, probedRow, searchRow]) row.ofCeiling = `${Math.round((row.reqPerSec / ceiling.reqPerSec) * 100)}%`;
    rows.push(ceiling, miss, mixedRow, probedRow, searchRow);
  } finally {
    await b.stop();
  }
  const pool = engine === 'postgres' ? `, database pool ${POOL ?? 'default (10)'}` : '';
  console.log(`[${engine}] ${COUNT} teachers, ${CONNECTIONS} connections, ${DURATION}s each${pool}`);
  console.table(rows);
  return {
    engine,
    count: COUNT,
    lessonReviewsPerTeacher: LESSON_REVIEWS,
    connections: CONNECTIONS,
    duration: DURATION,
    pool: POOL ?? null,
    distinctUrls: distinct.length,
    mixedUrls: mixed.length,
    searchUrls: searches.length,
    rows,
  };
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
