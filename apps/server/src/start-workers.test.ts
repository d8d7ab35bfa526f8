import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngine, type TestDatabase } from './test/db.js';
import { builtEntry } from './test/built.js';

/** what `npm start` runs */
const START = builtEntry('start.ts');

interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** start.ts with `env` (production; the embedded database unless DATABASE_URL is given). */
function start(env: Record<string, string>): Started {
  const child = spawn(process.execPath, [START], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '', AUTH_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exit };
}

/** The processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU ticks a process has used so far (Linux /proc). */
function cpuTicks(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

/** A GET's status, on a connection of its own (Connection: close). */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

async function until<T>(what: string, check: () => T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('WORKERS (decision 114)', () => {
  it('refuses a WORKERS that is not a count of processes, naming it', async () => {
    for (const workers of ['two', '0', '100', '1e3']) {
      const server = start({ WORKERS: workers, DATA_DIR: path.join(os.tmpdir(), 'll-workers-never-made') });
      expect(await server.exit).toBe(1);
      expect(server.output()).toContain('WORKERS must be a whole number of processes from 1 to 64');
      expect(server.output()).not.toMatch(/\n\s+at /);
    }
  }, 60_000);

  it.skipIf(testEngine === 'postgres')('refuses WORKERS=2 on the embedded database, which is one process\'s (PGlite run)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-workers-'));
    try {
      const server = start({ WORKERS: '2', DATA_DIR: dataDir });
      expect(await server.exit).toBe(1);
      expect(server.output()).toContain('WORKERS=2 needs DATABASE_URL (PostgreSQL)');
      // nothing was started on it: no database files, no lock
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe.skipIf(testEngine !== 'postgres')('WORKERS=2 on PostgreSQL (decision 114; PostgreSQL run only)', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'll-workers-'));
  });
  afterAll(async () => {
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('two processes serve the one port, pages and API; SIGTERM lets the requests in flight finish, then all exit 0', async () => {
    const server = start({
      WORKERS: '2',
      DATABASE_URL: database.url ?? '',
      AUTH_SECRET: 'workers-test-secret-workers-test-secret',
      DATA_DIR: dataDir,
    });
    try {
      const pid = server.child.pid ?? 0;
      // both workers listen (each logs its address; they share the port)
      const origins = await until('two workers listening', () => {
        const found = [...server.output().matchAll(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/g)].map((match) => match[1]);
        return found.length >= 2 ? found : undefined;
      });
      expect(new Set(origins).size).toBe(1);
      const origin = origins[0] as string;
      const workers = childrenOf(pid);
      expect(workers).toHaveLength(2);

      // connections are shared out between them: each one's CPU moves while pages are served
      const before = workers.map(cpuTicks);
      for (let round = 0; round < 4; round += 1) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            fetch(`${origin}/teachers?price_min=${round * 8 + i}`, { headers: { accept: 'text/html' } }),
          ),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(200);
          expect(await answer.text()).toContain('<div id="root"');
        }
      }
      const after = workers.map(cpuTicks);
      expect(after.every((ticks, i) => ticks > (before[i] ?? 0)), `CPU ticks ${String(before)} → ${String(after)}`).toBe(true);
      expect((await fetch(`${origin}/api/health`)).status).toBe(200);

      // requests under way when the signal comes are answered; then every process exits 0
      // (each on a connection of its own that closes after its answer: `agent: false`). API
      // requests: a page rendered during the drain can still answer 500, in one process as in
      // several — its in-process API requests are refused with 503 once the app is closing
      // (registerShutdownAnswer, Fastify's return503OnClosing), which is not the cluster's.
      const inFlight = Array.from({ length: 6 }, (_, i) => statusOf(`${origin}/api/teachers?price_max=${40 + i}`));
      // (the signal once every one of them has reached a worker: each logs its request)
      await until('the requests reaching the workers', () =>
        [...server.output().matchAll(/"url":"\/api\/teachers\?price_max=4\d"/g)].length >= 6 ? true : undefined,
      );
      server.child.kill('SIGTERM');
      expect(await Promise.all(inFlight), server.output().slice(-3000)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(await server.exit, server.output()).toBe(0);
      expect(server.output()).toContain('SIGTERM: shutting down 2 workers');
      for (const worker of workers) expect(fs.existsSync(`/proc/${worker}`)).toBe(false);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  }, 120_000);
});
