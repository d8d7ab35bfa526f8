import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './test/db.js';

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

interface Started {
  child: ChildProcess;
  origin: string;
  output: () => string;
  exit: Promise<number | null>;
}

function start(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SERVER], {
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: '', AUTH_SECRET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, origin: match[1] as string, output: () => out, exit });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exit.then((code) => reject(Object.assign(new Error(`server exited (${code}): ${out}`), { output: out, code })));
  });
}

describe.skipIf(testEngine === 'postgres')('the server process (embedded database lifecycle; PGlite run only)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-server-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts on a fresh DATA_DIR, refuses a second process, shuts down on SIGTERM and restarts on the same data', async () => {
    const first = await start(dataDir);
    try {
      const health = await fetch(`${first.origin}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', engine: 'pglite', searchIndex: 'pending' });
      const page = (await (await fetch(`${first.origin}/api/teachers?limit=50`)).json()) as { items: { id: string }[] };
      expect(page.items).toHaveLength(32);
      expect(fs.statSync(path.join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600);

      const second = await start(dataDir).catch((e: { output: string; code: number }) => e);
      expect(second).toMatchObject({ code: 1 });
      expect((second as { output: string }).output).toContain(`is in use by pid ${first.child.pid}`);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exit).toBe(0);
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);

    const again = await start(dataDir);
    try {
      const page = (await (await fetch(`${again.origin}/api/teachers?limit=50`)).json()) as { items: unknown[] };
      expect(page.items).toHaveLength(32);
      expect(again.output()).not.toContain('seeded');
    } finally {
      again.child.kill('SIGTERM');
    }
    expect(await again.exit).toBe(0);
  }, 120_000);

  it('makes DATA_DIR private (issue 10, finding 2): an existing readable tree is fixed at start, and everything it writes is 0700/0600', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-private-'));
    try {
      // A DATA_DIR as an older version left it: world-readable, with a world-writable file.
      fs.chmodSync(dir, 0o777);
      fs.mkdirSync(path.join(dir, 'pglite'), { mode: 0o777 });
      fs.chmodSync(path.join(dir, 'pglite'), 0o777);
      fs.writeFileSync(path.join(dir, 'old-file'), 'x');
      fs.chmodSync(path.join(dir, 'old-file'), 0o666);

      const server = await start(dir);
      try {
        // the start created the database, migrated and seeded it: the WAL and data files are written
        expect((await fetch(`${server.origin}/api/health`)).status).toBe(200);
        const loose: string[] = [];
        let files = 0;
        const visit = (entry: string) => {
          const stat = fs.lstatSync(entry);
          const mode = stat.mode & 0o777;
          if (stat.isDirectory()) {
            if (mode !== 0o700) loose.push(`${entry} ${mode.toString(8)}`);
            for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
          } else {
            files += 1;
            if (mode !== 0o600) loose.push(`${entry} ${mode.toString(8)}`);
          }
        };
        visit(dir);
        expect(loose).toEqual([]);
        expect(files).toBeGreaterThan(100);
        for (const name of ['.lock', 'auth-secret', 'old-file']) expect(fs.existsSync(path.join(dir, name))).toBe(true);
        expect(server.output()).toContain('files and directories private to this user');
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exit).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
