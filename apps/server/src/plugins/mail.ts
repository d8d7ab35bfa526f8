import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Env } from '../config/env.js';
import type { Database } from '../db/client.js';
import { createMailTransport } from '../mail/transport.js';
import { createMailWorker, DAY_MS, type MailWorkerOptions } from '../mail/worker.js';

export type MailWorkerSettings = Pick<
  MailWorkerOptions,
  'pollMs' | 'batch' | 'leaseMs' | 'retryBaseMs' | 'retryMaxMs' | 'retentionMs' | 'housekeepingEveryMs' | 'now'
>;

/** DATA_DIR/outbox: the .eml files written without SMTP_URL (absolute). */
export const outboxDirOf = (env: Pick<Env, 'dataDir'>) => path.join(env.dataDir, 'outbox');

/**
 * Runs this process's mail worker while the app runs: it starts when the app is ready and
 * finishes the send under way before the app (and then the database) closes.
 */
export function registerMailWorker(
  app: FastifyInstance,
  db: Database,
  env: Pick<Env, 'smtpUrl' | 'mailFrom' | 'dataDir' | 'dataDirDisplay' | 'outboxRetentionDays'>,
  settings: MailWorkerSettings = {},
): void {
  const transport = createMailTransport({
    from: env.mailFrom,
    smtpUrl: env.smtpUrl,
    outboxDir: outboxDirOf(env),
    outboxDisplay: path.join(env.dataDirDisplay, 'outbox'),
  });
  const worker = createMailWorker({ db, transport, log: app.log, retentionMs: env.outboxRetentionDays * DAY_MS, ...settings });
  app.addHook('onReady', async () => {
    worker.start();
    app.log.info(
      transport.kind === 'smtp'
        ? 'mail: sent through SMTP_URL'
        : `mail: no SMTP_URL; each message is written to ${path.join(env.dataDirDisplay, 'outbox')}/ as an .eml file`,
    );
  });
  app.addHook('onClose', async () => {
    await worker.stop();
    transport.close();
  });
}
