#!/usr/bin/env node
// The teacher's Lessons (issue 25, decision 122) for a teacher with --past (10,000) past lessons,
// among --teachers (1,000) teachers with --others (100) lessons each:
//  1. in-process (app.inject(), no port): GET /api/teach/lessons — the first page of each view, and
//     every page of the past view one after another (the deepest pages cost what the first does with
//     the keyset on booking_teacher_start_idx), with EXPLAIN ANALYZE of a first and a deep past page;
//  2. the built server on 127.0.0.1 (a free port), the teacher signed in: the same API over HTTP and
//     the server-rendered /teach/lessons (its three views prefetched), one request after another,
//     then --connections at once for --duration s (autocannon).
// Prints ms per request (p50/p99) and the load average (the machine is shared: read the figures with it).
// Needs the build (`npm run build`, or --no-build when it is there).
// Usage: node bench/teach-lessons.mjs [--engine postgres|pglite] [--past 10000] [--teachers 1000] [--others 100]
//                                     [--requests 300] [--connections 10] [--duration 10] [--no-build]
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { arg, buildUnlessNoBuild, freePort, freshPostgres, loadRun, root, startServer } from './lib.mjs';

const ENGINE = arg('engine', 'postgres');
const PAST = Number(arg('past', 10_000));
const TEACHERS = Number(arg('teachers', 1000));
const OTHERS = Number(arg('others', 100));
const REQUESTS = Number(arg('requests', 300));
const CONNECTIONS = Number(arg('connections', 10));
const DURATION = Number(arg('duration', 10));
const PASSWORD = 'bench-pass-1234';
const EMAIL = `teacher-${randomBytes(3).toString('hex')}@example.com`;
/** a second teacher, with --others lessons only: the same page for a short history */
const EMAIL_FEW = `few-${randomBytes(3).toString('hex')}@example.com`;

buildUnlessNoBuild();
const dist = (p) => pathToFileURL(path.join(root, 'apps/server/dist', p)).href;
const { buildApp } = await import(dist('app.js'));
const { loadEnv } = await import(dist('config/env.js'));
const { openDatabase } = await import(dist('db/client.js'));
const { seedGenerated } = await import(dist('catalogue/index.js'));
const schema = await import(dist('db/schema.js'));
const { selectTeachLessons } = await import(dist('modules/teach/teach-lessons-routes.js'));
const { eq, sql } = await import('drizzle-orm');

const HOUR = 3_600_000;
const NOW = Math.floor(Date.now() / HOUR) * HOUR;
const ME = 't000001';
const teacherId = (n) => `t${String(n).padStart(6, '0')}`;
const load = () => os.loadavg().map((v) => v.toFixed(2)).join(' ');
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
const summary = (times) => {
  const s = [...times].sort((a, b) => a - b);
  return `p50 ${quantile(s, 0.5).toFixed(2)} ms, p99 ${quantile(s, 0.99).toFixed(2)} ms (${s.length} requests)`;
};

/** The bookings: the teacher's PAST past lessons (one every 2 h back, every 10th cancelled), 40 upcoming, 8 requests; OTHERS each for the rest. */
function bookings() {
  const rows = [];
  const row = (teacher, start, extra = {}) => ({
    id: randomUUID(),
    teacherId: teacher,
    reason: 'Living abroad',
    fullName: `Learner ${rows.length}`,
    email: `learner${rows.length}@example.com`,
    phone: '+380 67 123 4567',
    language: 'French',
    start: new Date(start),
    ...extra,
  });
  for (let i = 0; i < PAST; i++) {
    const cancelled = i % 10 === 9 ? { cancelledAt: new Date(NOW - (i + 3) * 2 * HOUR), cancelledBy: 'learner' } : {};
    rows.push(row(ME, NOW - (i + 1) * 2 * HOUR, cancelled));
  }
  for (let i = 0; i < 40; i++) rows.push(row(ME, NOW + (i + 13) * 5 * HOUR));
  for (let i = 0; i < 8; i++) rows.push(row(ME, NOW + (301 + i * 7) * HOUR, { answerBy: new Date(NOW + (i + 2) * HOUR) }));
  for (let n = 2; n <= TEACHERS; n++) {
    for (let i = 0; i < OTHERS; i++) rows.push(row(teacherId(n), NOW + (i - OTHERS / 2) * 3 * HOUR));
  }
  return rows;
}

async function database() {
  if (ENGINE === 'pglite') {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'learnlingo-bench-teach-'));
    return { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, open: () => openDatabase({ engine: 'pglite', dataDir }), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const fresh = await freshPostgres('ll_bench_teach');
  return {
    env: { DATABASE_URL: fresh.url, AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123' },
    open: () => openDatabase({ engine: 'postgres', url: fresh.url, max: 4 }),
    drop: fresh.drop,
  };
}

const explainText = (result) => (Array.isArray(result) ? result : result.rows).map((r) => Object.values(r).join('')).join('\n');

/** Fills the database, signs the teacher up (bound to ME), and measures the API in-process. */
async function inProcess(db) {
  await db.migrate();
  await seedGenerated(db, TEACHERS);
  const rows = bookings();
  const filled = performance.now();
  for (let i = 0; i < rows.length; i += 1000) {
    await db.orm
      .insert(schema.booking)
      .values(rows.slice(i, i + 1000))
      .catch((error) => {
        throw new Error(`insert of bookings ${i}…: ${error.cause?.message ?? error.message}`);
      });
  }
  await db.rows(sql`analyze booking`);
  console.log(`[${ENGINE}] ${rows.length} bookings written in ${Math.round(performance.now() - filled)} ms (${PAST} past of ${ME}), load ${load()}`);

  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    DATA_DIR: path.join(os.tmpdir(), 'learnlingo-bench-teach-unused'),
    WEB_DIST: path.join(os.tmpdir(), 'learnlingo-bench-no-web-dist'),
  });
  const app = await buildApp({ env, db, mailWorker: false, catalogueCacheCheckMs: 0 });
  await app.ready();
  try {
    const origin = 'http://127.0.0.1:3000';
    for (const [email, teacher] of [
      [EMAIL, ME],
      [EMAIL_FEW, teacherId(2)],
    ]) {
      const signUp = await app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers: { origin }, payload: { name: 'Bench Teacher', email, password: PASSWORD } });
      if (signUp.statusCode !== 200) throw new Error(`sign-up: ${signUp.statusCode} ${signUp.body}`);
      const [user] = await db.orm.select({ id: schema.user.id }).from(schema.user).where(eq(schema.user.email, email));
      await db.orm.update(schema.user).set({ role: 'teacher' }).where(eq(schema.user.id, user.id));
      await db.orm.insert(schema.teacherAccount).values({ teacherId: teacher, userId: user.id });
    }
    const signIn = await app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { origin }, payload: { email: EMAIL, password: PASSWORD } });
    const cookie = signIn.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const get = (url) => app.inject({ method: 'GET', url, headers: { cookie } });

    for (let i = 0; i < 20; i++) await get('/api/teach/lessons?view=past'); // warm-up
    for (const view of ['requests', 'upcoming', 'past']) {
      const times = [];
      let count = 0;
      for (let i = 0; i < REQUESTS; i++) {
        const t0 = performance.now();
        const res = await get(`/api/teach/lessons?view=${view}`);
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${view}: ${res.statusCode} ${res.body}`);
        count = res.json().items.length;
      }
      console.log(`[${ENGINE}] inject GET /api/teach/lessons?view=${view} (first page, ${count} items): ${summary(times)}, load ${load()}`);
    }
    // every page of the past view, 50 at a time
    const times = [];
    let cursor = null;
    let seen = 0;
    let deepCursor = null;
    do {
      const t0 = performance.now();
      const res = await get(`/api/teach/lessons?view=past&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      times.push(performance.now() - t0);
      const body = res.json();
      seen += body.items.length;
      cursor = body.nextCursor;
      if (seen >= PAST - 100 && !deepCursor) deepCursor = body.items.at(-1);
    } while (cursor);
    console.log(`[${ENGINE}] inject every past page, 50 a page (${seen} lessons, ${times.length} pages): ${summary(times)}; last page ${times.at(-1).toFixed(2)} ms`);

    // the plans of a first and a deep past page (the server's statement)
    for (const [label, after] of [
      ['first', null],
      ['deep', deepCursor ? { value: Date.parse(deepCursor.start), id: deepCursor.id } : null],
    ]) {
      const query = selectTeachLessons(db.orm, { teacherId: ME, view: 'past', at: new Date(), after, limit: 11 }).toSQL();
      const literal = (p) => (typeof p === 'number' ? String(p) : `'${String(p instanceof Date ? p.toISOString() : p).replaceAll("'", "''")}'`);
      const inlined = query.sql.replace(/\$(\d+)/g, (_, i) => literal(query.params[Number(i) - 1]));
      const plan = explainText(await db.rows(sql.raw(`explain (analyze, buffers) ${inlined}`)));
      console.log(`[${ENGINE}] EXPLAIN ANALYZE, ${label} past page:\n${plan.replace(/^/gm, '    ')}`);
    }
  } finally {
    await app.close();
  }
}

/** The built server on a free port of 127.0.0.1: the API over HTTP and the server-rendered page. */
async function overHttp(env) {
  const server = await startServer(env, await freePort());
  const signIn = async (email) => {
    const res = await fetch(`${server.base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.base },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`sign-in: ${res.status}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    return { cookie, 'accept-encoding': 'gzip, deflate, br' };
  };
  /** one request after another: p50/p99 */
  const sequential = async (title, url, headers) => {
    for (let i = 0; i < 20; i++) await (await fetch(server.base + url, { headers })).arrayBuffer();
    const times = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      const res = await fetch(server.base + url, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    }
    console.log(`[${ENGINE}] HTTP ${title}, one after another: ${summary(times)}, load ${load()}`);
  };
  try {
    const headers = await signIn(EMAIL);
    const few = await signIn(EMAIL_FEW);
    const page = await fetch(`${server.base}/teach/lessons`, { headers: { ...headers, accept: 'text/html' } });
    const body = await page.text();
    if (page.status !== 200 || !body.includes('Past lessons')) throw new Error(`/teach/lessons: ${page.status}, ${body.length} bytes`);
    console.log(`[${ENGINE}] /teach/lessons answers ${page.status}, ${body.length} bytes of HTML (${(body.match(/<article/g) ?? []).length} lessons rendered)`);
    const json = { ...headers, accept: 'application/json' };
    const html = { ...headers, accept: 'text/html' };
    await sequential('GET /api/teach/lessons?view=past', '/api/teach/lessons?view=past', json);
    await sequential(`GET /teach/lessons (SSR, three views), ${PAST} past lessons`, '/teach/lessons', html);
    await sequential(`GET /teach/lessons (SSR, three views), a teacher with ${OTHERS} lessons`, '/teach/lessons', { ...few, accept: 'text/html' });
    await sequential('GET /teach/reviews (SSR, the other tab, for reference)', '/teach/reviews', html);
    for (const [title, url, h] of [
      ['GET /api/teach/lessons?view=past', '/api/teach/lessons?view=past', json],
      ['GET /teach/lessons (SSR, three views)', '/teach/lessons', html],
    ]) {
      const r = await loadRun(server, title, [url], { connections: CONNECTIONS, duration: DURATION, headers: h });
      console.log(
        `[${ENGINE}] HTTP ${title}, ${CONNECTIONS} connections ${DURATION} s: ${r.reqPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ` +
          `${r.failures} failures; CPU µs/request server ${r.serverUs}, postgres ${r.postgresUs}, loader ${r.loaderUs}; load ${load()}`,
      );
    }
  } finally {
    await server.stop();
  }
}

console.log(`teacher's Lessons on ${ENGINE}: ${PAST} past lessons of one teacher among ${TEACHERS} teachers × ${OTHERS}; load average before: ${load()}`);
const target = await database();
try {
  const db = await target.open();
  try {
    await inProcess(db);
  } finally {
    await db.close();
  }
  await overHttp(target.env);
} finally {
  await target.drop();
}
