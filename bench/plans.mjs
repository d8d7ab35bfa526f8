#!/usr/bin/env node
// The catalogue's statements on a large catalogue (issue 11): for every order, EXPLAIN ANALYZE
// of its list statement (generic plan, as the server runs it) must be an ordered index-only
// scan of that order's index under the LIMIT — no Sort, no Seq Scan, no Bitmap — in both
// branches (without a language: teacher; with one: teacher_language); every search
// statement must find its matches through the two search indexes (never a table scan); and
// every walk statement (a following page of a common search, decision 042) must read its
// order's indexes in order and each teacher's search row by primary key; the relevance
// page among the name matches, only the trigram index; a search's name matches, only
// teacher_name's trigram index (decision 095); cards by id, the cards' primary key.
// Prints each plan's execution time and the plans that fail; exits 1 when one fails.
// PostgreSQL only (PGlite runs the same statements; list-plan.test.ts checks both engines
// on 2,000 teachers). The database is bench/api.mjs's (ll_bench_<count>), seeded if needed.
// Usage: node bench/plans.mjs [--count 100000] [--verbose]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { arg, ensureBuilt, postgresEnv, root, seed } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const VERBOSE = process.argv.includes('--verbose');

ensureBuilt();
// the catalogue module's one entry (apps/server/src/catalogue/index.ts)
const {
  listParams,
  SEARCH_PARAMS,
  SORT_ORDERS,
  LIST_STATEMENTS,
  CARDS_STATEMENT,
  NAME_MATCHES_STATEMENT,
  SEARCH_NAME_PAGE_STATEMENT,
  SEARCH_STATEMENTS,
  SEARCH_WALK_STATEMENTS,
  SEARCH_WALK_TOP_STATEMENT,
  searchWords,
} = await import(pathToFileURL(path.join(root, 'apps/server/dist/catalogue/index.js')).href);

const env = await postgresEnv(`ll_bench_${COUNT}`);
seed(env, COUNT);

// one session, with the server's settings (apps/server/src/db/client.ts)
const sql = new pg.Client({ connectionString: env.DATABASE_URL, options: '-c plan_cache_mode=force_generic_plan -c jit=off' });
await sql.connect();

/** EXPLAIN ANALYZE of a statement prepared as the server prepares it, run with these arguments. */
async function explain(statement, args) {
  await sql.query(`prepare plan_check as ${statement}`);
  try {
    // a few runs first: the first executions of a prepared statement plan it (custom plans
    // would not apply here — generic is forced — but warm the caches like a server's)
    for (let i = 0; i < 3; i++) await sql.query(`explain analyze execute plan_check(${args})`);
    const { rows } = await sql.query(`explain analyze execute plan_check(${args})`);
    return rows.map((r) => Object.values(r).join('')).join('\n');
  } finally {
    await sql.query('deallocate plan_check');
  }
}

const literal = (value) => (typeof value === 'number' ? `'${value}'` : `'${String(value).replaceAll("'", "''")}'`);
/** A search statement's arguments by parameter name (SEARCH_PARAMS): every tag filter '' (any), no price bound, unless given. */
const searchArgs = (values) =>
  SEARCH_PARAMS.map((name) => literal(values[name] ?? { price_min: '-Infinity', price_max: 'Infinity' }[name] ?? '')).join(', ');
const time = (plan) => Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);

const failures = [];
const report = [];

for (const [sort, order] of Object.entries(SORT_ORDERS)) {
  if (!order.indexes) continue;
  // two calls in one batch: one with a language (the teacher_language branch), one without;
  // each parameter by name (listParams)
  const calls = [
    { language: 'English', level: 'B1 Intermediate', price_min: 20, price_max: 40 },
    { price_min: '-Infinity', price_max: 'Infinity' },
  ];
  const args = listParams(order)
    .map(([name, type]) => `array[${calls.map((call) => literal(call[name] ?? { after_k: order.start, lim: 5 }[name] ?? '')).join(', ')}]::${type}[]`)
    .join(', ');
  const plan = await explain(LIST_STATEMENTS[sort], args);
  const backward = '(Backward )?';
  const checks = [
    [`teacher branch: Index Only Scan on ${order.indexes.teacher}`, new RegExp(`Index Only Scan ${backward}using ${order.indexes.teacher}`)],
    [
      `language branch: Index Only Scan on ${order.indexes.teacherLanguage}`,
      new RegExp(`Index Only Scan ${backward}using ${order.indexes.teacherLanguage}`),
    ],
  ];
  const bad = checks.filter(([, pattern]) => !pattern.test(plan)).map(([name]) => name);
  if (/->\s+Sort\b/.test(plan)) bad.push('a Sort');
  if (/Seq Scan|Bitmap/.test(plan)) bad.push('a Seq Scan or Bitmap');
  report.push({ statement: `list, ${sort}`, ms: time(plan), ok: bad.length === 0 });
  if (bad.length > 0) failures.push({ statement: `list ${sort}`, bad, plan });
  else if (VERBOSE) console.log(`--- list ${sort}\n${plan}\n`);
}

const SEARCHES = ['chloe', 'schmit', 'müller', 'pronunciation', 'grammar', 'lesson'];
for (const [sort, order] of Object.entries(SORT_ORDERS)) {
  for (const q of SEARCHES) {
    const args = searchArgs({ q, words: searchWords(q), after_k: order.start, rows: 5 });
    const plan = await explain(SEARCH_STATEMENTS[sort], args);
    const bad = [];
    if (!plan.includes('teacher_search_document_idx')) bad.push('the full-text index');
    if (!plan.includes('teacher_search_name_trgm_idx')) bad.push('the trigram index');
    if (/Seq Scan on teacher/.test(plan)) bad.push('a table scan');
    // the rows the search's heap scans found (relevance: the name matches, then the others)
    const matches = plan
      .split('\n')
      .filter((line) => line.includes('Bitmap Heap Scan'))
      .reduce((sum, line) => sum + Number(/actual time=\S+ rows=(\d+)/.exec(line)?.[1] ?? 0), 0);
    report.push({ statement: `search ${JSON.stringify(q)}, ${sort}`, ms: time(plan), matches, ok: bad.length === 0 });
    if (bad.length > 0) failures.push({ statement: `search ${q} ${sort}`, bad, plan });
    else if (VERBOSE) console.log(`--- search ${q} ${sort}\n${plan}\n`);
  }
}

// A following page of a common search (decision 042): the walk of the order's index from a
// cursor half-way through the catalogue, each teacher tested by its search row's primary key.
for (const [sort, order] of Object.entries(SORT_ORDERS)) {
  // relevance walks only past the name matches, through the document matches that are not
  // name matches: "chloe" has none (its walk would read every row) and is never walked
  for (const q of order.indexes ? ['pronunciation', 'chloe'] : ['pronunciation']) {
    const value = order.indexes ? (order.cursorType === 'int8' ? 1500 : 40) : 0;
    const args = searchArgs({ q, words: searchWords(q), after_k: value, after_id: 't050000', rows: 5 });
    const plan = await explain(SEARCH_WALK_STATEMENTS[sort], args);
    const bad = [];
    if (order.indexes) {
      for (const index of [order.indexes.teacher, order.indexes.teacherLanguage]) {
        if (!new RegExp(`Index Only Scan (Backward )?using ${index}`).test(plan)) bad.push(`Index Only Scan on ${index}`);
      }
      if (!plan.includes('Index Scan using teacher_search_pkey')) bad.push('the search row by primary key');
    } else if (!plan.includes('Index Scan Backward using teacher_search_pkey')) bad.push('teacher_search backwards by primary key');
    if (/->\s+Sort\b|Seq Scan|Bitmap/.test(plan)) bad.push('a Sort, Seq Scan or Bitmap');
    report.push({ statement: `walk ${JSON.stringify(q)}, ${sort}`, ms: time(plan), ok: bad.length === 0 });
    if (bad.length > 0) failures.push({ statement: `walk ${q} ${sort}`, bad, plan });
    else if (VERBOSE) console.log(`--- walk ${q} ${sort}\n${plan}\n`);
  }
}

// A following relevance page among the name matches: the trigram index only.
for (const q of ['chloe', 'schmit']) {
  const args = searchArgs({ q, words: searchWords(q), after_k: 0.9, after_id: 't050000', rows: 5 });
  const plan = await explain(SEARCH_NAME_PAGE_STATEMENT, args);
  const bad = [];
  if (!plan.includes('teacher_search_name_trgm_idx')) bad.push('the trigram index');
  if (/teacher_search_document_idx|Seq Scan/.test(plan)) bad.push('a document or table scan');
  report.push({ statement: `name page ${JSON.stringify(q)}, relevance`, ms: time(plan), ok: bad.length === 0 });
  if (bad.length > 0) failures.push({ statement: `name page ${q}`, bad, plan });
  else if (VERBOSE) console.log(`--- name page ${q}\n${plan}\n`);
}

// A search's name matches (decisions 094, 095: every search's first page, its facet counts and
// its relevance pages among the names): teacher_name's trigram index, never teacher_search;
// the cards of a page of them by primary key; and a first relevance page past its name
// matches, the walk by id from the top.
for (const q of ['chloe', 'schmit', 'lea dubois', 'pronunciation', 'lesson']) {
  const plan = await explain(NAME_MATCHES_STATEMENT, [q, searchWords(q)].map(literal).join(', '));
  const bad = [];
  if (!plan.includes('teacher_name_trgm_idx')) bad.push("teacher_name's trigram index");
  if (/teacher_search|Seq Scan/.test(plan)) bad.push('teacher_search or a table scan');
  const names = Number(/Bitmap Heap Scan[^\n]*actual time=\S+ rows=(\d+)/.exec(plan)?.[1] ?? NaN);
  report.push({ statement: `name matches ${JSON.stringify(q)} (distinct names)`, ms: time(plan), matches: names, ok: bad.length === 0 });
  if (bad.length > 0) failures.push({ statement: `name matches ${q}`, bad, plan });
  else if (VERBOSE) console.log(`--- name matches ${q}\n${plan}\n`);
}
{
  const ids = Array.from({ length: 7 }, (_, i) => `t${String(1 + i * 9973).padStart(6, '0')}`);
  const plan = await explain(CARDS_STATEMENT, `array[${ids.map(literal).join(', ')}]`);
  const bad = [];
  if (!plan.includes('teacher_card_pkey')) bad.push("teacher_card's primary key");
  if (/Seq Scan|Hash/.test(plan)) bad.push('a table scan or hash');
  report.push({ statement: 'cards of 7 name matches', ms: time(plan), ok: bad.length === 0 });
  if (bad.length > 0) failures.push({ statement: 'cards', bad, plan });
  else if (VERBOSE) console.log(`--- cards\n${plan}\n`);
}
for (const q of ['pronunciation', 'lesson']) {
  const args = [q, searchWords(q), '', '', '-Infinity', 'Infinity', 0, '', 7].map(literal).join(', ');
  const plan = await explain(SEARCH_WALK_TOP_STATEMENT, args);
  const bad = [];
  if (!plan.includes('Index Scan Backward using teacher_search_pkey')) bad.push('teacher_search backwards by primary key');
  if (/->\s+Sort\b|Seq Scan|Bitmap/.test(plan)) bad.push('a Sort, Seq Scan or Bitmap');
  report.push({ statement: `walk from the top ${JSON.stringify(q)}, relevance`, ms: time(plan), ok: bad.length === 0 });
  if (bad.length > 0) failures.push({ statement: `walk from the top ${q}`, bad, plan });
  else if (VERBOSE) console.log(`--- walk from the top ${q}\n${plan}\n`);
}

await sql.end();
console.log(`\n${COUNT} teachers, PostgreSQL, generic plans, EXPLAIN ANALYZE execution times (after 3 warm runs)`);
console.table(report);
for (const failure of failures) console.log(`\nFAILED ${failure.statement}: ${failure.bad.join(', ')}\n${failure.plan}`);
process.exitCode = failures.length > 0 ? 1 : 0;
