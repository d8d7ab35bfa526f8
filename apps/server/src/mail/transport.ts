import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../config/private-files.js';
import type { MailMessage } from './message.js';

/** Where a message went: `where` for the log (never the recipient); `file`, an .eml file's name in outboxDir. */
export interface SentMail {
  where: string;
  file?: string;
}

/** Sends one message. */
export interface MailTransport {
  readonly kind: 'smtp' | 'eml';
  /** DATA_DIR/outbox: where .eml files are written (and, with SMTP, any left from before expire) */
  readonly outboxDir: string;
  send(id: string, message: MailMessage): Promise<SentMail>;
  close(): void;
}

export interface TransportOptions {
  /** the From of every message */
  from: string;
  /** SMTP_URL; unset: .eml files in outboxDir */
  smtpUrl?: string;
  /** DATA_DIR/outbox (absolute) */
  outboxDir: string;
  /** outboxDir as the log shows it */
  outboxDisplay: string;
}

const toNodemailer = (from: string, message: MailMessage): nodemailer.SendMailOptions => ({
  from,
  to: message.to,
  subject: message.subject,
  text: message.text,
  ...(message.html === undefined ? {} : { html: message.html }),
  attachments: (message.attachments ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    content: a.content,
  })),
});

/**
 * SMTP through nodemailer when SMTP_URL is set. Timeouts are bounded well inside the worker's
 * lease, so a send always ends (delivered or failed) before another worker may take the message.
 * Without SMTP_URL each message is composed the same way and written to
 * DATA_DIR/outbox/<time>-<id>.eml (0600 in a 0700 directory), so a developer can open it.
 */
export function createMailTransport(options: TransportOptions): MailTransport {
  if (options.smtpUrl) {
    const smtp = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      // nodemailer's own log stays off: it would print addresses
      logger: false,
      debug: false,
    });
    return {
      kind: 'smtp',
      outboxDir: options.outboxDir,
      async send(_id, message) {
        await smtp.sendMail(toNodemailer(options.from, message));
        return { where: 'SMTP' };
      },
      close: () => smtp.close(),
    };
  }

  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'eml',
    outboxDir: options.outboxDir,
    async send(id, message) {
      // every time: a developer may have emptied DATA_DIR/outbox by deleting it
      ensurePrivateDir(options.outboxDir);
      const info = await composer.sendMail(toNodemailer(options.from, message));
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
      // 'wx': an existing file is never overwritten (an id is sent at most once per file)
      await fs.writeFile(path.join(options.outboxDir, name), info.message as Buffer, { mode: PRIVATE_FILE_MODE, flag: 'wx' });
      return { where: path.join(options.outboxDisplay, name), file: name };
    },
    close: () => composer.close(),
  };
}
