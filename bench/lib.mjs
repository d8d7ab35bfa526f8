// Shared helpers for the benchmarks: start the built server on a prepared database.
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const benchData = path.join(root, 'bench/.data');

/** `--name value` from the command line, or the fallback. */
export const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};

/** The PostgreSQL server the benchmarks use (127.0.0.1 by default). */
export const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** true when PG_ADMIN answers */
export async function pgReachable() {
  const client = new pg.Client({ connectionString: PG_ADMIN, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A database named `dbName` on PG_ADMIN's server (created when missing; dropped and made
 * again when `fresh`), and the environment the server and `seed` need to use it.
 */
export async function postgresEnv(dbName, { fresh = false } = {}) {
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  try {
    if (fresh) await admin.query(`drop database if exists ${dbName} with (force)`);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [dbName]);
    if (exists.rowCount === 0) await admin.query(`create database ${dbName}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN);
  url.pathname = `/${dbName}`;
  return { DATABASE_URL: url.toString(), AUTH_SECRET: 'bench-secret-bench-secret-bench-secret' };
}
/** A new, empty database on PG_ADMIN's server named `{prefix}_{random}`: its URL, and `drop()` (drops it, with force). */
export async function freshPostgres(prefix) {
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  await admin.query(`create database "${name}"`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/**
 * The environment of the shared generated catalogue of `count` teachers on an engine: a
 * PGlite DATA_DIR kept in bench/.data, or PostgreSQL's `ll_bench_<count>` database (seed()
 * fills either to `count`).
 */
export async function catalogueEnv(engine, count) {
  if (engine === 'pglite') return { DATA_DIR: path.join(benchData, `pglite-${count}`), DATABASE_URL: '' };
  return postgresEnv(`ll_bench_${count}`);
}
const serverEntry = path.join(root, 'apps/server/dist/server.js');
const seedEntry = path.join(root, 'apps/server/dist/cli/seed.js');

export function ensureBuilt() {
  if (!existsSync(serverEntry) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('build failed');
  }
}

/** Fills a database with `count` generated teachers (seed is idempotent: fills up to count); extraArgs: e.g. ['--lesson-reviews', '6']. */
export function seed(env, count, extraArgs = []) {
  mkdirSync(benchData, { recursive: true });
  const r = spawnSync(process.execPath, [seedEntry, '--count', String(count), ...extraArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) throw new Error(`seed failed (${r.status})`);
}

/**
 * A TCP port free on 127.0.0.1 right now (the system picks it): benchmarks that share the
 * machine with other servers do not answer each other's health checks.
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server and resolves once /api/health answers. Only ever on 127.0.0.1. */
export async function startServer(env, port, { checkout = root, script = 'server.js' } = {}) {
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the server.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  // (`checkout`: another built checkout of the repository, e.g. the commit before a change)
  // (`script`: start.js for the production start, which runs WORKERS processes)
  const entry = checkout === root && script === 'server.js' ? serverEntry : path.join(checkout, 'apps/server/dist', script);
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    base,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/**
 * Begins the server's search index build with one search and waits until /api/health says
 * it is built (decision 095: searches do not wait for it, the statements answer them
 * meanwhile); returns the milliseconds it took. For runs that measure the steady state.
 */
export async function searchIndexBuilt(server, searchPath = '/api/teachers?q=lesson') {
  const started = performance.now();
  const first = await fetch(server.base + searchPath);
  if (first.status !== 200) throw new Error(`${searchPath}: ${first.status}`);
  await first.arrayBuffer();
  for (;;) {
    const health = await (await fetch(`${server.base}/api/health`)).json();
    if (health.searchIndex === 'ready') return Math.round(performance.now() - started);
    if (performance.now() - started > 300_000) throw new Error('the search index was not built within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * CPU time (ms) used so far by the server process, by all PostgreSQL processes and by this
 * process (the load generator), from /proc; null where there is no /proc (not Linux).
 */
export function cpuSnapshot(serverPid) {
  if (!existsSync('/proc/self/stat')) return null;
  const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
  const out = { server: 0, postgres: 0, loader: 0 };
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // the process has gone
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
    const pid = Number(entry);
    if (pid === serverPid) out.server += ms;
    else if (pid === process.pid) out.loader += ms;
    else if (comm.startsWith('postgres')) out.postgres += ms;
  }
  return out;
}

/** Shuffles deterministically so consecutive requests differ. */
export function shuffle(paths) {
  let s = 42;
  for (let i = paths.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const j = s % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return paths;
}

/**
 * One autocannon run over `paths` (in turn, from the first). CPU µs per request (from
 * /proc: the server process, all PostgreSQL processes, this process = the load generator)
 * tell where the time goes and, read against the load generator's own figure, how fast the
 * machine was during the run. Failures: non-2xx answers, errors and timeouts.
 */
export async function loadRun(server, title, paths, { connections, duration, headers = {} }) {
  let i = 0;
  const before = cpuSnapshot(server.pid);
  const result = await autocannon({
    url: server.base,
    connections,
    duration,
    headers,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  const after = cpuSnapshot(server.pid);
  const bad = result.non2xx + result.errors + result.timeouts;
  const perRequest = (key) =>
    before && after && result.requests.total ? Math.round(((after[key] - before[key]) * 1000) / result.requests.total) : null;
  return {
    title,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: bad,
    serverUs: perRequest('server'),
    postgresUs: perRequest('postgres'),
    loaderUs: perRequest('loader'),
  };
}

/** Every teacher's page path, from the server's sitemap (an index of parts past 50,000 URLs). */
export async function sitemapTeacherPaths(base) {
  const locs = async (pathname) => {
    const res = await fetch(base + pathname);
    if (!res.ok) throw new Error(`${pathname}: ${res.status}`);
    return [...(await res.text()).matchAll(/<loc>([^<]{1,2000})<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  };
  const top = await locs('/sitemap.xml');
  const files = top.some((p) => p.startsWith('/sitemaps/')) ? top : ['/sitemap.xml'];
  const pages = [];
  for (const file of files) pages.push(...(file === '/sitemap.xml' ? top : await locs(file)).filter((p) => p.startsWith('/teachers/')));
  return pages;
}

/** The median of numbers (the mean of the middle two for an even count). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `npm run build` unless the command line says `--no-build`. */
export function buildUnlessNoBuild() {
  if (process.argv.includes('--no-build')) return;
  console.log('building …');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('build failed');
}

/**
 * The built app on 127.0.0.1 (`port`, or a free one) with a catalogue file (the real
 * 30-teacher ../shared/data/teachers.json) imported into a temporary DATA_DIR; `pages` are
 * `/`, `/teachers` and the first teacher's page. `stop()` stops it and removes the DATA_DIR.
 * (`checkout`: another built checkout of the repository, e.g. the commit before a change)
 */
export async function startCatalogueServer(catalogue, port, { checkout = root } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'learnlingo-page-speed-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  let server;
  try {
    const imported = spawnSync(process.execPath, [path.join(checkout, 'apps/server/dist/cli/import.js'), catalogue], {
      cwd: checkout,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...env },
    });
    if (imported.status !== 0) throw new Error(`import of ${catalogue} into ${checkout} failed (${imported.status})`);
    server = await startServer(env, port ?? (await freePort()), { checkout });
    const first = await (await fetch(`${server.base}/api/teachers?limit=1`)).json();
    const teacherId = first.items[0]?.id;
    if (!teacherId) throw new Error('the catalogue is empty');
    return {
      base: server.base,
      pid: server.pid,
      teacherId,
      pages: ['/', '/teachers', `/teachers/${encodeURIComponent(teacherId)}`],
      async stop() {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Flags for Debian's Chromium in the benchmarks: headless, nothing fetched from elsewhere. */
export const CHROMIUM_FLAGS = ['--headless=new', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Chromium on a fresh profile with a DevTools port of its choosing; resolves to that port. */
export async function launchChromium(chromium) {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'learnlingo-lh-profile-'));
  const child = spawn(chromium, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: 'ignore',
  });
  const portFile = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 30_000;
  let port = 0;
  while (!port) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port in 30 s');
    if (existsSync(portFile)) port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
    if (!port) await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      // (Chromium's helpers may still be writing into the profile for a moment after it exits)
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (error) {
        // a helper process still writing into it: a temporary profile left behind is no reason to lose the run
        console.warn(`(left ${profile}: ${error.code})`);
      }
    },
  };
}

/**
 * One Lighthouse run of `url` (default config = mobile) in its own browser: the performance
 * score, FCP, LCP, CLS, TBT and the machine's `benchmarkIndex` as Lighthouse measured it.
 */
export async function lighthouseAudit(url, chromium) {
  const { default: lighthouse } = await import('lighthouse');
  const browser = await launchChromium(chromium);
  try {
    const result = await lighthouse(url, { port: browser.port, hostname: '127.0.0.1', output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const value = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      cls: value('cumulative-layout-shift'),
      tbt: value('total-blocking-time'),
      // what the largest paint was: the element, and the request it waited for, if any
      lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
      lighthouse: lhr.lighthouseVersion,
    };
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse sometimes loses its trace on a busy machine (NO_NAVSTART, NO_FCP): such a run
 * measured nothing, so it is run again (twice at most) and said so.
 */
export async function lighthouseAuditWithRetry(url, chromium) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouseAudit(url, chromium);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`${error.message.split('\n')[0]} — run again`);
    }
  }
}

/**
 * CPU time (ms) of a server by thread, from /proc/<pid>/task (Linux; null elsewhere): `main`
 * (the JavaScript thread), `v8` (V8's platform workers: concurrent GC marking and sweeping,
 * the optimising compiler), `pool` (libuv's thread pool: zlib's compression, crypto, fs) and
 * `other`. Node 20 names none of its threads, so they are told apart by the order they were
 * made in (thread ids grow): V8's workers (--v8-pool-size, 4 by default, and the platform's
 * delayed-task thread) are made at start, before any JavaScript runs; the pool's threads
 * (UV_THREADPOOL_SIZE, 4) at its first use, all at once. With `children` (cluster workers),
 * the threads of every process whose parent is `pid` are added to the same parts.
 */
export function threadCpu(pid, { v8Threads = 5, poolThreads = 4 } = {}) {
  if (!existsSync(`/proc/${pid}/task`)) return null;
  const out = { main: 0, v8: 0, pool: 0, other: 0, processes: 0 };
  const ticksPerMs = 100 / 1000;
  const ms = (stat) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
  };
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) pids.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  for (const one of pids) {
    let tids;
    try {
      tids = readdirSync(`/proc/${one}/task`).map(Number).sort((a, b) => a - b);
    } catch {
      continue;
    }
    out.processes += 1;
    const rest = tids.filter((tid) => tid !== one);
    rest.forEach((tid, index) => {
      let stat;
      try {
        stat = readFileSync(`/proc/${one}/task/${tid}/stat`, 'utf8');
      } catch {
        return;
      }
      const part = index < v8Threads ? 'v8' : index >= rest.length - poolThreads ? 'pool' : 'other';
      out[part] += ms(stat);
    });
    try {
      out.main += ms(readFileSync(`/proc/${one}/task/${one}/stat`, 'utf8'));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The machine's 1-minute load average, one decimal. */
export const loadAverage = () => Math.round(os.loadavg()[0] * 10) / 10;

/**
 * loadRun with the server's CPU per request by thread (threadCpu: main, V8's helpers, the
 * libuv pool; cluster workers included) and the machine's load average before and after.
 */
export async function loadRunByThread(server, title, paths, options) {
  const loadBefore = loadAverage();
  const before = threadCpu(server.pid);
  const row = await loadRun(server, title, paths, options);
  const after = threadCpu(server.pid);
  const per = (key) => (before && after && row.requests ? Math.round(((after[key] - before[key]) * 1000) / row.requests) : null);
  const main = per('main');
  const v8 = per('v8');
  const pool = per('pool');
  const other = per('other');
  return {
    ...row,
    mainUs: main,
    v8Us: v8,
    poolUs: pool,
    otherUs: other,
    threadsUs: main === null ? null : main + v8 + pool + other,
    load: `${loadBefore}→${loadAverage()}`,
  };
}

/**
 * The render floor of pages (bench/render.mjs's measure): the CPU µs per call of a checkout's
 * server entry (`<checkout>/apps/web/dist-ssr/entry-server.js`) in this process, with every
 * API answer canned — no HTTP, no database, no compression, no concurrency; V8's helper
 * threads included (process.cpuUsage). The answers are asked of `base` once, before anything
 * is measured; each URL is rendered `passes` times after `warm` unmeasured passes (the JIT's).
 * The caller sets NODE_ENV=production before the first call (React's production build).
 * Returns `us`, and with `serverPid` also `apiUs`: the server's CPU per page (all its threads,
 * /proc) for answering the pages' API requests over HTTP, each once, one at a time (during
 * the first unmeasured pass) — the data a distinct page needs, which the floor has canned.
 * An entry that takes the in-process API as plain objects (`api`) is given it, as the server
 * gives it; an older entry takes `fetch` (with `fetchOnly`, every entry does).
 * renderFloor runs this in a process of its own.
 */
export async function renderFloorHere(checkout, base, urls, { passes = 2, warm = 3, fetchOnly = false, serverPid } = {}) {
  const { render } = await import(pathToFileURL(path.join(checkout, 'apps/web/dist-ssr/entry-server.js')).href);
  const answers = new Map();
  const answerOf = async (key) => {
    let answer = answers.get(key);
    if (!answer) {
      const response = await fetch(base + key, { headers: { accept: 'application/json' } });
      answer = { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
      answers.set(key, answer);
    }
    return answer;
  };
  const fetchFromServer = async (request) => {
    const url = new URL(request.url);
    const answer = await answerOf(url.pathname + url.search);
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': answer.type } });
  };
  // the in-process API as the server gives it (an entry that takes `api` renders the way the
  // server has it render; an older one, `fetch`): the same store work as under load
  const apiFromServer = async ({ url }) => {
    const answer = await answerOf(url);
    return { status: answer.status, headers: { 'content-type': answer.type }, body: answer.body };
  };
  const request = (url) => ({
    url,
    ...(fetchOnly ? {} : { api: apiFromServer }),
    fetch: fetchFromServer,
    sessionCookie: false,
    publicOrigin: 'https://learnlingo.example',
    contactEmail: null,
  });
  const serverBefore = serverPid ? threadCpu(serverPid) : null;
  for (let pass = 0; pass < warm; pass += 1) {
    for (const url of urls) await render(request(url));
    if (pass === 0 && serverBefore) {
      const after = threadCpu(serverPid);
      const sum = (cpu) => cpu.main + cpu.v8 + cpu.pool + cpu.other;
      request.apiUs = after ? Math.round(((sum(after) - sum(serverBefore)) * 1000) / urls.length) : null;
    }
  }
  const cpu = process.cpuUsage();
  for (let pass = 0; pass < passes; pass += 1) for (const url of urls) await render(request(url));
  const used = process.cpuUsage(cpu);
  return { us: Math.round((used.user + used.system) / (passes * urls.length)), apiUs: request.apiUs ?? null };
}

/**
 * renderFloorHere in a new Node process (bench/render-floor.mjs), so that each checkout's floor
 * is measured alike: two checkouts' entries imported into one process measured apart by a third
 * (2026-11-28: a teacher page's floor 5,819 µs for the first checkout imported, 3,894 µs for the
 * second, where each alone in its own process gave 5,452–6,303 and 4,823–5,796 µs), and the
 * load generator's heap and JIT state no longer share the process. Same arguments and answer.
 */
export async function renderFloor(checkout, base, urls, options = {}) {
  const child = spawn(process.execPath, [path.join(root, 'bench/render-floor.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  // (a child that died before reading its input: the exit code says so, not an EPIPE)
  child.stdin.on('error', () => {});
  child.stdin.end(JSON.stringify({ checkout, base, urls, options }));
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => (out += chunk));
  // ('close': its output read to the end, which 'exit' does not wait for)
  const code = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`bench/render-floor.mjs exited with ${code}`);
  return JSON.parse(out);
}
