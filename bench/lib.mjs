// Shared helpers for the benchmarks: start the built server on a prepared database.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const benchData = path.join(root, 'bench/.data');
const serverEntry = path.join(root, 'apps/server/dist/server.js');
const seedEntry = path.join(root, 'apps/server/dist/cli/seed.js');

export function ensureBuilt() {
  if (!existsSync(serverEntry) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('build failed');
  }
}

/** Fills a database with `count` generated teachers (seed is idempotent: fills up to count). */
export function seed(env, count) {
  mkdirSync(benchData, { recursive: true });
  const r = spawnSync(process.execPath, [seedEntry, '--count', String(count)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (r.status !== 0) throw new Error(`seed failed (${r.status})`);
}

/** Starts the server and resolves once /api/health answers. Only ever on 127.0.0.1. */
export async function startServer(env, port) {
  // BENCH_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the server.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverEntry], {
    cwd: root,
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
