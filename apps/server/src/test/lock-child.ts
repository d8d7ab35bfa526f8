/**
 * A second process for the DATA_DIR lock tests:
 *   node --import tsx lock-child.ts DIR try   → prints "acquired" or the refusal, exits 0/1
 *   node --import tsx lock-child.ts DIR hold  → takes the lock, prints "holding", waits to be killed
 */
import { acquireDataDirLock } from '../db/data-dir-lock.js';

const [dir, mode] = process.argv.slice(2);
try {
  const lock = acquireDataDirLock(dir as string, { display: dir, command: 'lock-child' });
  if (mode === 'hold') {
    process.stdout.write('holding\n');
    setInterval(() => {}, 1000);
  } else {
    process.stdout.write('acquired\n');
    lock.release();
  }
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
  process.exit(1);
}
