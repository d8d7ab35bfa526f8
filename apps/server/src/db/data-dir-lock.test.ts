import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE_NAME } from './data-dir-lock.js';
import { builtEntry } from '../test/built.js';

const CHILD = builtEntry('test/lock-child.ts');
const runChild = (dir: string) =>
  spawnSync(process.execPath, [CHILD, dir, 'try'], { encoding: 'utf8', timeout: 20_000 });

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-lock-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('DATA_DIR lock', () => {
  it('writes {pid, command, startedAt, hostname} and removes the file on release', () => {
    const lock = acquireDataDirLock(dir, { command: 'node server.js' });
    const info = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'));
    expect(info).toEqual({
      pid: process.pid,
      command: 'node server.js',
      startedAt: expect.any(String),
      hostname: os.hostname(),
      cmdline: fs.readFileSync('/proc/self/cmdline', 'utf8'),
    });
    lock.release();
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
  });

  it('refuses a second holder while the first is alive, naming it', () => {
    const lock = acquireDataDirLock(dir, { command: 'node server.js' });
    try {
      expect(() => acquireDataDirLock(dir, { display: './data' })).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir, { display: './data' })).toThrow(
        new RegExp(`^DATA_DIR \\./data is in use by pid ${process.pid} \\(node server\\.js, started .+\\)\\. Stop it first, or use DATABASE_URL\\.$`),
      );
    } finally {
      lock.release();
    }
    acquireDataDirLock(dir).release();
  });

  it('takes over a stale lock left by a dead process', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const stale = { pid: Number(dead.stdout), command: 'node server.js', startedAt: '2020-01-01T00:00:00.000Z', hostname: os.hostname() };
    fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), JSON.stringify(stale));
    const lock = acquireDataDirLock(dir);
    expect(lock.info.pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another program (issue 10, finding 9), but not one whose holder still runs', async () => {
    // a live process that is not LearnLingo, holding the pid the lock names
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((done) => other.once('spawn', done));
      const pid = other.pid as number;
      const record = (cmdline: string) =>
        fs.writeFileSync(
          path.join(dir, LOCK_FILE_NAME),
          JSON.stringify({ pid, command: 'node server.js', startedAt: '2020-01-01T00:00:00.000Z', hostname: os.hostname(), cmdline }),
        );

      // the lock's holder ran `node server.js`; pid now runs `sleep 30`: stale
      record(`node\u0000apps/server/dist/server.js\u0000`);
      const lock = acquireDataDirLock(dir);
      expect(lock.info.pid).toBe(process.pid);
      lock.release();

      // the recorded command line is the one running under that pid: still held
      record(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    } finally {
      other.kill();
    }
  });

  it('a lock without a recorded command line (written before locks had one) is judged by the script its holder ran', async () => {
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((done) => other.once('spawn', done));
      const record = (pid: number, command: string) =>
        fs.writeFileSync(
          path.join(dir, LOCK_FILE_NAME),
          JSON.stringify({ pid, command, startedAt: '2020-01-01T00:00:00.000Z', hostname: os.hostname() }),
        );

      // the holder ran the server; its pid now runs `sleep 30`: stale, taken over
      record(other.pid as number, '/usr/bin/node /srv/learnlingo/apps/server/dist/server.js');
      const lock = acquireDataDirLock(dir);
      expect(lock.info.pid).toBe(process.pid);
      lock.release();

      // a pid that still runs the script the lock names (given relative, as `npm start` does): held
      const script = path.join(dir, 'server.js');
      fs.writeFileSync(script, 'setTimeout(() => {}, 30_000);');
      const server = spawn(process.execPath, ['server.js'], { cwd: dir, stdio: 'ignore' });
      try {
        await new Promise((done) => server.once('spawn', done));
        record(server.pid as number, `${process.execPath} ${script}`);
        expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      } finally {
        server.kill();
      }
    } finally {
      other.kill();
    }
  });

  it('refuses a real second process, and lets it in once released', () => {
    const lock = acquireDataDirLock(dir, { command: 'node apps/server/dist/server.js' });
    const refused = runChild(dir);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain(`is in use by pid ${process.pid} (node apps/server/dist/server.js`);
    lock.release();
    const ok = runChild(dir);
    expect(ok.stdout.trim()).toBe('acquired');
    expect(ok.status).toBe(0);
  });

  it('refuses this process while another holds it; takes over once that one is killed', async () => {
    const child = spawn(process.execPath, [CHILD, dir, 'hold'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => (chunk.toString().includes('holding') ? resolve() : undefined));
        child.on('exit', () => reject(new Error('child exited early')));
      });
      expect(() => acquireDataDirLock(dir)).toThrow(new RegExp(`in use by pid ${child.pid} \\(lock-child`));
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    const lock = acquireDataDirLock(dir);
    expect(lock.info.pid).toBe(process.pid);
    lock.release();
  });
});
