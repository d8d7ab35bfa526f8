import { EnvError } from '../config/env.js';
import { privateByDefault } from '../config/private-files.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';

/** Runs a command's main; expected failures print their message (no stack) and exit 1. */
export function runCli(main: () => Promise<void>): void {
  privateByDefault();
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      const expected =
        error instanceof EnvError ||
        error instanceof DataDirLockedError ||
        (error instanceof Error && error.name === 'ImportError') ||
        (error instanceof Error && error.name === 'UsageError');
      process.stderr.write(`${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`);
      process.exit(1);
    },
  );
}

export class UsageError extends Error {
  override name = 'UsageError';
}
