import fs from 'node:fs';
import path from 'node:path';

/**
 * Everything the server writes under DATA_DIR is its user's alone: the embedded database
 * (its WAL holds e-mails, phone numbers, password hashes and session tokens), the lock,
 * the generated auth secret and the mail outbox. Directories 0700, files 0600.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * The process's umask: files and directories it creates — PGlite's included, which asks
 * for 0666 — are private to its user. Called first thing by every entry point.
 */
export function privateByDefault(): void {
  process.umask(0o077);
}

/** Creates `dir` (and missing parents) private, or makes an existing one private. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Makes `dir` and everything under it private (a DATA_DIR written before this rule, or by
 * a process with a looser umask). Symbolic links are neither followed nor changed.
 * Returns how many entries were changed. Missing `dir`: nothing to do.
 */
export function makeTreePrivate(dir: string): number {
  let changed = 0;
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((stat.mode & 0o777) !== wanted) {
      fs.chmodSync(entry, wanted);
      changed += 1;
    }
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  try {
    visit(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !fs.existsSync(dir)) return 0;
    throw error;
  }
  return changed;
}
