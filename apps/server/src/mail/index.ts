/**
 * The product's one mailer: an outbox table, filled in the caller's transaction and emptied
 * by a worker in every server process.
 *
 *   import { enqueueMail } from '../mail/index.js';
 *   await db.orm.transaction(async (tx) => {
 *     …your writes…
 *     await enqueueMail(tx, {
 *       to: 'learner@example.com',
 *       subject: 'Your trial lesson',
 *       text: '…',                      // html?: '…'
 *       attachments: [{ filename: 'lesson.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ics }],
 *     });
 *   });
 *
 * - enqueueMail(tx, message) → the message's id. Give it the transaction (`tx`) so the mail
 *   exists only if your writes commit, or `db.orm` for a message on its own. It only inserts a
 *   row: it never waits for SMTP and never fails a request because mail is down. A malformed
 *   message (not one address, a header with a line break, over the caps in message.ts) throws
 *   MailMessageError — a bug in the caller, not bad user input.
 * - Log the id if anything; addresses, subjects and bodies are personal data and never logged.
 * - The worker (started with the app by plugins/mail.ts) claims due rows with
 *   FOR UPDATE SKIP LOCKED and a lease, so several servers on one PostgreSQL never send a
 *   message twice; it sends through nodemailer to SMTP_URL, retrying with exponential backoff
 *   (30 s doubling up to 30 min, forever) until it goes; a delivered row is deleted, an SMTP
 *   5xx refusal is kept with failed_at. Without SMTP_URL each message is written to
 *   DATA_DIR/outbox/<time>-<id>.eml (0600, directory 0700) and the log prints that path; the
 *   row keeps only the file's name.
 * - Nothing personal is kept for ever (decision 104): the worker's hourly housekeeping removes
 *   .eml files and refused messages older than OUTBOX_RETENTION_DAYS (default 7). Each row
 *   names the account its address belongs to (at enqueue); deleting the account removes its
 *   rows in the deletion's transaction (forgetRecipient) and then their files (removeOutboxFiles).
 * - Tests: createTestApp() runs no worker; read what was queued from the mail_outbox table
 *   (see mail/mail.test.ts), or run createMailWorker(...).runOnce() against a test SMTP server.
 */
export { enqueueMail, forgetRecipient } from './outbox.js';
export { expireOutboxFiles, removeOutboxFiles } from './outbox-files.js';
export { MailMessageError, type MailAttachment, type MailMessage } from './message.js';
export { createMailTransport, type MailTransport, type SentMail } from './transport.js';
export { createMailWorker, type Housekeeping, type MailWorker } from './worker.js';
