import type { EventEmitter } from 'node:events';
import { isDatabaseUnavailable, loggableError, loggableOutage } from './plugins/errors.js';

/*
 * What the process does with an error nobody handled (decision 101).
 *
 * - A database connection that failed (terminated by the server, reset, refused, timed out:
 *   isDatabaseUnavailable) is an outage, not a bug: the pool has dropped that connection and
 *   opens another when needed, the requests it served have had their 503. It is logged as a
 *   warning and the process lives on. The driver's connection errors are handled where they
 *   arise (db/client.ts); this is the net under any that still escape.
 * - Anything else is a programmer error, and after one the process's state is unknown (Node:
 *   "it is not safe to resume normal operation"). It is logged as fatal, in-flight requests
 *   get a few seconds to finish, and the process exits with 1 for its supervisor (systemd,
 *   Docker, Kubernetes) to start a clean one: crash-only, but never silent.
 *
 * The log holds the error as loggableError gives it: no query parameters, no `detail`.
 */

export type Verdict = 'survive' | 'exit';

export const verdictFor = (error: unknown): Verdict => (isDatabaseUnavailable(error) ? 'survive' : 'exit');

export interface GuardLogger {
  warn(object: Record<string, unknown>, message: string): void;
  fatal(object: Record<string, unknown>, message: string): void;
}

export interface ProcessGuardOptions {
  /** the app's logger once there is one; before, one JSON line on stderr */
  logger: () => GuardLogger | undefined;
  /** closes what can be closed, then exits with 1; called once, at the first fatal error */
  exit: () => void;
  /** process, or a stand-in in tests */
  target?: EventEmitter;
}

/** One pino-shaped line on stderr, for errors before the app's logger exists. */
const stderrLogger: GuardLogger = {
  warn: (object, msg) => process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), ...object, msg })}\n`),
  fatal: (object, msg) => process.stderr.write(`${JSON.stringify({ level: 60, time: Date.now(), ...object, msg })}\n`),
};

export function installProcessGuard({ logger, exit, target = process }: ProcessGuardOptions): () => void {
  let exiting = false;
  const handle = (origin: 'uncaughtException' | 'unhandledRejection') => (error: unknown) => {
    const log = logger() ?? stderrLogger;
    if (verdictFor(error) === 'survive') {
      log.warn({ error: loggableOutage(error), origin }, 'database connection error outside a request: the pool replaces the connection');
      return;
    }
    log.fatal({ err: loggableError(error), origin }, `${origin}: exiting for a clean restart`);
    if (exiting) return;
    exiting = true;
    exit();
  };
  const onException = handle('uncaughtException');
  const onRejection = handle('unhandledRejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
