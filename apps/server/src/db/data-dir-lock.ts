import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../config/private-files.js';

export const LOCK_FILE_NAME = '.lock';

export interface LockInfo {
  pid: number;
  command: string;
  startedAt: string;
  hostname: string;
  /** the holder's /proc/<pid>/cmdline when it took the lock (Linux), to tell it from a later process with the same pid */
  cmdline?: string;
}

export interface DataDirLock {
  readonly file: string;
  readonly info: LockInfo;
  /** Removes the lock file if it is still ours. Safe to call twice. */
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo | null,
  ) {
    super(
      holder
        ? `DATA_DIR ${dataDir} is in use by pid ${holder.pid} (${holder.command}, started ${holder.startedAt}` +
            `${holder.hostname !== os.hostname() ? ` on ${holder.hostname}` : ''}). ` +
            'Stop it first, or use DATABASE_URL.'
        : `DATA_DIR ${dataDir} is being locked by another process right now. Stop it first, or use DATABASE_URL.`,
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    const data: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (
      typeof data === 'object' &&
      data !== null &&
      'pid' in data &&
      typeof data.pid === 'number' &&
      Number.isInteger(data.pid)
    ) {
      const d = data as Partial<LockInfo> & { pid: number };
      return {
        pid: d.pid,
        command: typeof d.command === 'string' ? d.command : 'unknown command',
        startedAt: typeof d.startedAt === 'string' ? d.startedAt : 'at an unknown time',
        hostname: typeof d.hostname === 'string' ? d.hostname : os.hostname(),
        ...(typeof d.cmdline === 'string' ? { cmdline: d.cmdline } : {}),
      };
    }
  } catch {
    // unreadable or half-written
  }
  return null;
}

/** A process's command line as the system shows it (Linux: /proc), or null where it cannot be read. */
export function commandLineOf(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
}

/**
 * A lock file is stale when its process is gone (only knowable on this host) — or when
 * its pid now belongs to another program: the pid was reused after the holder died
 * without removing the lock (a crash, a power cut), and the command line differs from
 * the one the holder recorded.
 */
function isStale(file: string, holder: LockInfo | null): boolean {
  if (holder === null) {
    // Half-written or garbage: stale once it has been like that for a while.
    try {
      return Date.now() - fs.statSync(file).mtimeMs > 5_000;
    } catch {
      return true;
    }
  }
  if (holder.hostname !== os.hostname()) return false;
  if (!isAlive(holder.pid)) return true;
  if (holder.pid === process.pid) return false;
  const current = commandLineOf(holder.pid);
  if (current === null) return false;
  if (holder.cmdline !== undefined) return current !== holder.cmdline;
  return !runsScriptOf(current, holder.command);
}

const baseName = (file: string) => file.slice(file.lastIndexOf('/') + 1);

/**
 * For a lock that recorded no command line (written before locks did, or where /proc is
 * missing): the pid is still its holder only if one of its arguments names the same
 * script the holder ran (`command` is the server's `process.argv`: node, then the script;
 * a command line tool's lock names its npm command instead, and is left to its holder).
 * A pid reused by `sleep`, a shell or any other program names no such file.
 */
function runsScriptOf(cmdline: string, command: string): boolean {
  const [program = '', script = ''] = command.split(' ');
  // a command given by name (`npm run seed`) says nothing to compare: assume it still runs
  if (!baseName(program).startsWith('node') || script === '') return true;
  const name = baseName(script);
  return cmdline.split('\u0000').some((arg) => baseName(arg) === name);
}

/**
 * Takes DATA_DIR/.lock exclusively (created with O_EXCL, so two processes can never
 * both succeed). A lock left by a dead process is taken over. Throws DataDirLockedError
 * naming the holder otherwise. PGlite does not lock its directory itself, and two
 * processes writing to one directory silently lose rows.
 */
export function acquireDataDirLock(
  dataDir: string,
  options: { display?: string; command?: string } = {},
): DataDirLock {
  ensurePrivateDir(dataDir);
  const file = path.join(dataDir, LOCK_FILE_NAME);
  const display = options.display ?? dataDir;
  const info: LockInfo = {
    pid: process.pid,
    command: options.command ?? process.argv.join(' '),
    startedAt: new Date().toISOString(),
    hostname: os.hostname(),
  };
  const cmdline = commandLineOf(process.pid);
  if (cmdline !== null) info.cmdline = cmdline;

  for (let attempt = 0; attempt < 3; attempt += 1) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'wx', PRIVATE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(file);
      if (!isStale(file, holder)) throw new DataDirLockedError(display, holder);
      // Take over the stale lock: move it aside atomically so that only one taker wins.
      const aside = `${file}.stale-${process.pid}-${attempt}`;
      try {
        fs.renameSync(file, aside);
        fs.rmSync(aside, { force: true });
      } catch {
        // someone else moved it first; try again
      }
      continue;
    }
    try {
      fs.writeSync(fd, `${JSON.stringify(info)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off('exit', release);
      const current = readLock(file);
      if (current && current.pid === info.pid && current.startedAt === info.startedAt) {
        fs.rmSync(file, { force: true });
      }
    };
    process.on('exit', release);
    return { file, info, release };
  }
  throw new DataDirLockedError(display, readLock(file));
}
