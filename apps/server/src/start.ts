/**
 * `npm start`: the server as it runs in production, whatever NODE_ENV the shell holds —
 * React's production build, the web app's source maps not served, TRUST_PROXY's production
 * rules. With the embedded database nothing more is needed (AUTH_SECRET is generated in
 * DATA_DIR); with DATABASE_URL, AUTH_SECRET is required. `npm run dev` is the development
 * server. Set here rather than as `NODE_ENV=production node …` in package.json, which the
 * Windows shell npm runs scripts in does not understand (decision 103).
 *
 * WORKERS=N (PostgreSQL only) runs N server processes on the one port with Node's cluster
 * (decision 114): JavaScript runs on one thread per process, so one process uses about one
 * core. This process then only starts them, starts again one that dies, and on SIGTERM or
 * SIGINT has each shut down gracefully (server.ts) before it exits.
 */
import cluster, { type Worker } from 'node:cluster';

process.env.NODE_ENV = 'production';

/** What the first process tells a worker when it is stopped. */
const SHUTDOWN = 'learnlingo:shutdown';

/** The most processes WORKERS may ask for. */
const WORKERS_MAX = 64;
/** How long the workers have to finish their requests and close (server.ts gives itself 10 s). */
const SHUTDOWN_MS = 15_000;
/** Worker deaths within a minute past which this is not a passing fault: stop, exit 1. */
const RESTARTS_PER_MINUTE = 5;

/** WORKERS as a count of processes: 1 (one process, no cluster) when unset. */
function workerCount(raw: string | undefined): number | string {
  if (raw === undefined || raw === '') return 1;
  // (checked for its length before its pattern)
  if (raw.length > 2 || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > WORKERS_MAX) {
    return `WORKERS must be a whole number of processes from 1 to ${WORKERS_MAX} (got "${raw.slice(0, 20)}")`;
  }
  return Number(raw);
}

const workers = cluster.isPrimary ? workerCount(process.env.WORKERS) : 1;
if (typeof workers === 'string') {
  process.stderr.write(`${workers}\n`);
  process.exit(1);
} else if (workers > 1 && !process.env.DATABASE_URL) {
  process.stderr.write(
    `WORKERS=${workers} needs DATABASE_URL (PostgreSQL): the embedded database in DATA_DIR is one process's. ` +
      'Unset WORKERS, or set DATABASE_URL and AUTH_SECRET.\n',
  );
  process.exit(1);
} else if (workers > 1) {
  runWorkers(workers);
} else {
  if (cluster.isWorker) followShutdown();
  await import('./server.js');
}

/**
 * A worker shuts down (server.ts's own SIGTERM: gracefully) when the first process tells it
 * to, unless a signal already reached it: Ctrl+C sends SIGINT to every process of the
 * terminal's group at once, and server.ts takes a second signal as "exit now".
 */
function followShutdown(): void {
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => (signalled = true));
  process.on('message', (message) => {
    if (message === SHUTDOWN && !signalled) process.kill(process.pid, 'SIGTERM');
  });
}

/** Starts `count` server processes on the one port and looks after them until a signal stops them. */
function runWorkers(count: number): void {
  const log = (message: string) => process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: message })}\n`);
  let stopping = false;
  let exitCode = 0;
  const deaths: number[] = [];
  const fork = () => cluster.fork();

  cluster.on('exit', (worker: Worker, code, signal) => {
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    log(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && (deaths[0] ?? now) < now - 60_000) deaths.shift();
    if (deaths.length > RESTARTS_PER_MINUTE) {
      log(`${deaths.length} workers exited within a minute: stopping`);
      stop(1);
      return;
    }
    fork();
  });

  /** Each worker shuts down gracefully (its own SIGTERM handler); past SHUTDOWN_MS they are killed. */
  function stop(code: 0 | 1): void {
    if (stopping) {
      // a second signal: at once
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    exitCode = code;
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(exitCode);
    for (const worker of alive) worker?.send(SHUTDOWN);
    setTimeout(() => {
      process.stderr.write('workers took too long to shut down; exiting\n');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_MS).unref();
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (!stopping) log(`${signal}: shutting down ${Object.keys(cluster.workers ?? {}).length} workers`);
      stop(0);
    });
  }
  log(`starting ${count} server processes (WORKERS)`);
  // the first alone: it migrates the database and seeds an empty catalogue, which two at once
  // would race on; the others once it listens
  // (the first to listen: another, if the first died before it did)
  let started = false;
  cluster.on('listening', () => {
    if (started || stopping) return;
    started = true;
    for (let i = 1; i < count; i += 1) fork();
  });
  fork();
}
