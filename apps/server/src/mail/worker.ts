import type { Database } from '../db/client.js';
import { checkMailMessage, MailMessageError } from './message.js';
import { createOutbox, type ClaimedMail } from './outbox.js';
import { expireOutboxFiles, removeOutboxFiles } from './outbox-files.js';
import type { MailTransport, SentMail } from './transport.js';

/** The logger methods the worker uses (Fastify's logger fits). It is given ids, never addresses. */
export interface MailLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailWorkerOptions {
  db: Database;
  transport: MailTransport;
  log: MailLog;
  /** how often the outbox is looked at when idle (default 1000 ms) */
  pollMs?: number;
  /** messages per claim (default 10) */
  batch?: number;
  /** how long a claim is exclusive (default 5 min; the SMTP timeouts end a send well before) */
  leaseMs?: number;
  /** first retry delay, doubled per attempt (default 30 s) */
  retryBaseMs?: number;
  /** longest retry delay (default 30 min): a down server is tried again at least this often, forever */
  retryMaxMs?: number;
  /** how long a written .eml file, and a refused message, are kept (default 7 days: OUTBOX_RETENTION_DAYS) */
  retentionMs?: number;
  /** how often housekeeping runs (default 1 hour; first when the worker starts) */
  housekeepingEveryMs?: number;
  /** the clock retention is measured by (ms since the epoch; default Date.now): tests move it */
  now?: () => number;
}

/** What one housekeeping pass removed. */
export interface Housekeeping {
  /** outbox rows of written or refused messages */
  rows: number;
  /** .eml files in DATA_DIR/outbox */
  files: number;
}

export const DAY_MS = 24 * 60 * 60_000;

export interface MailWorker {
  start(): void;
  /** Stops polling and waits for the send under way, if any. */
  stop(): Promise<void>;
  /** Claims and sends everything due now (also what the timer runs); resolves when done. */
  runOnce(): Promise<void>;
  /**
   * Removes what is older than the retention (also what the timer runs, hourly): the rows of
   * written and refused messages, their .eml files, and any other .eml file in DATA_DIR/outbox
   * last written before then (by the file's time).
   */
  housekeep(): Promise<Housekeeping>;
}

/** What the log and last_error may say about a failure: its codes, never its text (it can hold addresses). */
function describeFailure(error: unknown): { code?: string; responseCode?: number; summary: string } {
  const e = (error ?? {}) as { code?: unknown; responseCode?: unknown; name?: unknown };
  const code = typeof e.code === 'string' ? e.code.slice(0, 40) : undefined;
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const name = typeof e.name === 'string' ? e.name.slice(0, 40) : 'Error';
  return {
    ...(code === undefined ? {} : { code }),
    ...(responseCode === undefined ? {} : { responseCode }),
    summary: [name, code, responseCode].filter((part) => part !== undefined).join(' '),
  };
}

/** An SMTP 5xx answer is the server refusing this message for good; anything else may pass. */
const isPermanent = (error: unknown) => {
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600;
};

export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { transport, log } = options;
  const outbox = createOutbox(options.db);
  const pollMs = options.pollMs ?? 1000;
  const batch = options.batch ?? 10;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const retryMaxMs = options.retryMaxMs ?? 30 * 60_000;
  const retentionMs = options.retentionMs ?? 7 * DAY_MS;
  const housekeepingEveryMs = options.housekeepingEveryMs ?? 60 * 60_000;
  const now = options.now ?? Date.now;

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let cleaning: Promise<Housekeeping> | undefined;
  let nextHousekeepingAt = -Infinity;
  let stopped = true;

  async function deliver(claim: ClaimedMail): Promise<void> {
    let sent: SentMail;
    try {
      const message = checkMailMessage(claim.message);
      sent = await transport.send(claim.id, message);
    } catch (error) {
      const { summary, ...codes } = describeFailure(error);
      if (error instanceof MailMessageError || isPermanent(error)) {
        await outbox.failed(claim, summary);
        log.error({ mailId: claim.id, attempts: claim.attempts, ...codes }, 'mail refused for good; kept in mail_outbox with failed_at');
        return;
      }
      const retryMs = Math.min(retryMaxMs, retryBaseMs * 2 ** Math.min(claim.attempts - 1, 30));
      await outbox.retryLater(claim, retryMs, summary);
      log.warn({ mailId: claim.id, attempts: claim.attempts, retryInMs: retryMs, ...codes }, 'mail not sent; will retry');
      return;
    }
    if (sent.file === undefined) {
      await outbox.delivered(claim);
      log.info({ mailId: claim.id, attempts: claim.attempts }, 'mail sent');
    } else if (await outbox.written(claim, sent.file)) {
      log.info({ mailId: claim.id, attempts: claim.attempts }, `mail written to ${sent.where}`);
    } else {
      // no longer ours: another worker took it after our lease (and writes its own copy), or
      // its recipient's account was deleted meanwhile
      await removeOutboxFiles(transport.outboxDir, [sent.file]);
      log.info({ mailId: claim.id, attempts: claim.attempts }, 'mail written but no longer queued; file removed');
    }
  }

  async function drain(): Promise<void> {
    for (;;) {
      const claims = await outbox.claim(batch, leaseMs);
      for (const claim of claims) await deliver(claim);
      if (claims.length < batch || stopped) return;
    }
  }

  function runOnce(): Promise<void> {
    // one pass at a time in this process
    running ??= drain()
      .catch((error: unknown) => {
        // the database is down or shutting down: the messages wait in the outbox
        const { summary: _summary, ...codes } = describeFailure(error);
        log.warn(codes, 'mail outbox not reachable; will retry');
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  async function expire(): Promise<Housekeeping> {
    const cutoff = now() - retentionMs;
    const expired = await outbox.expire(new Date(cutoff));
    // the files the rows named, then whatever else is as old (from before, or whose row is gone)
    const files =
      (await removeOutboxFiles(transport.outboxDir, expired.files)) + (await expireOutboxFiles(transport.outboxDir, cutoff));
    if (expired.rows > 0 || files > 0) log.info({ rows: expired.rows, files }, 'mail outbox: expired messages removed');
    return { rows: expired.rows, files };
  }

  function housekeep(): Promise<Housekeeping> {
    cleaning ??= expire().finally(() => {
      cleaning = undefined;
    });
    return cleaning;
  }

  /** One pass per housekeepingEveryMs; a failure waits for the next (the log says why, by code). */
  async function housekeepIfDue(): Promise<void> {
    if (stopped || now() < nextHousekeepingAt) return;
    nextHousekeepingAt = now() + housekeepingEveryMs;
    await housekeep().catch((error: unknown) => {
      const { summary: _summary, ...codes } = describeFailure(error);
      log.warn(codes, 'mail outbox housekeeping failed; will retry');
    });
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().then(housekeepIfDue).then(schedule);
    }, pollMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void runOnce().then(housekeepIfDue).then(schedule);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await cleaning?.catch(() => {});
    },
    runOnce,
    housekeep,
  };
}
