import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * The .eml files of DATA_DIR/outbox (no SMTP_URL: each is the delivery of one message). They
 * hold names, addresses and private links, so none is kept for ever: a file goes when its
 * retention ends (expireOutboxFiles, by its time on disk — files from before the outbox kept
 * their names, or whose row is gone, included) or when its recipient's account is deleted
 * (removeOutboxFiles, by the names the outbox rows kept).
 */

/** The transport's names (`<time>-<id>.eml`): a name from the database never leaves the folder. */
const OUTBOX_FILE = /^[\w.-]+\.eml$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** Removes these files of `outboxDir` (already gone: fine). Returns how many were removed. */
export async function removeOutboxFiles(outboxDir: string, names: readonly string[]): Promise<number> {
  let removed = 0;
  for (const name of names) {
    if (!OUTBOX_FILE.test(name)) continue;
    try {
      await fs.unlink(path.join(outboxDir, name));
      removed += 1;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  return removed;
}

/** Removes the .eml files of `outboxDir` last written before `cutoffMs`. Returns how many. */
export async function expireOutboxFiles(outboxDir: string, cutoffMs: number): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(outboxDir);
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
  const expired: string[] = [];
  for (const name of names) {
    if (!OUTBOX_FILE.test(name)) continue;
    try {
      const stat = await fs.lstat(path.join(outboxDir, name));
      if (stat.isFile() && stat.mtimeMs < cutoffMs) expired.push(name);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  return removeOutboxFiles(outboxDir, expired);
}
