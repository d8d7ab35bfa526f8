import type { Database } from '../db/client.js';
import { checkMailMessage, MailMessageError } from './message.js';
import { createOutbox, type ClaimedMail } from './outbox.js';
import type { MailTransport } from './transport.js';

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
}

export interface MailWorker {
  start(): void;
  /** Stops polling and waits for the send under way, if any. */
  stop(): Promise<void>;
  /** Claims and sends everything due now (also what the timer runs); resolves when done. */
  runOnce(): Promise<void>;
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

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function deliver(claim: ClaimedMail): Promise<void> {
    let where: string;
    try {
      const message = checkMailMessage(claim.message);
      where = await transport.send(claim.id, message);
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
    await outbox.delivered(claim);
    log.info({ mailId: claim.id, attempts: claim.attempts }, transport.kind === 'eml' ? `mail written to ${where}` : 'mail sent');
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

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().then(schedule);
    }, pollMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      void runOnce().then(schedule);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    runOnce,
  };
}
