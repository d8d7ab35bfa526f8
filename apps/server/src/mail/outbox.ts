import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.js';
import { mailOutbox, user } from '../db/schema.js';
import { checkMailMessage, type MailMessage } from './message.js';

/**
 * Queues a message in the caller's transaction (or, given the database itself, on its own):
 * it is sent only if that transaction commits, and the request never waits for SMTP.
 * Returns the message's id, the only thing about it that may be logged.
 */
export async function enqueueMail(tx: Db, message: MailMessage, { dueAt }: { dueAt?: Date } = {}): Promise<string> {
  const checked = checkMailMessage(message);
  const id = randomUUID();
  // The account this address belongs to, if any (addresses are stored lowercased): when it is
  // deleted, its queued and written mail goes with it (forgetRecipient).
  const recipient = sql`(select ${user.id} from ${user} where ${user.email} = ${checked.to.toLowerCase()})`;
  // dueAt: not sent before then (a lesson's review request goes at its end, decision 112)
  await tx.insert(mailOutbox).values({ id, message: checked, recipientUserId: recipient, ...(dueAt ? { nextAttemptAt: dueAt } : {}) });
  return id;
}

/**
 * Removes every message to this account — queued, written or refused — in the caller's
 * transaction (account deletion). Returns the names of their .eml files in DATA_DIR/outbox,
 * for the caller to remove once its transaction has committed (removeOutboxFiles).
 */
export async function forgetRecipient(tx: Db, userId: string): Promise<string[]> {
  const rows = await tx
    .delete(mailOutbox)
    .where(eq(mailOutbox.recipientUserId, userId))
    .returning({ file: mailOutbox.file });
  return rows.flatMap((row) => (row.file ? [row.file] : []));
}

export interface ClaimedMail {
  id: string;
  /** as stored; the worker checks it again before sending */
  message: unknown;
  /** this claim's attempt number (1 for the first) */
  attempts: number;
}

const seconds = (ms: number) => Math.max(0.001, ms / 1000);

/** The outbox's statements for the worker. Every time is the database's clock, shared by all servers. */
export function createOutbox(db: Database) {
  return {
    /**
     * Takes up to `limit` due messages for `leaseMs`: their next attempt moves out by the lease,
     * so no other worker takes them meanwhile, and a worker that dies mid-send leaves them to be
     * taken again once it ends. SKIP LOCKED: concurrent claims on any number of servers never
     * return the same row and never wait for each other.
     */
    async claim(limit: number, leaseMs: number): Promise<ClaimedMail[]> {
      const rows = await db.rows<{ id: string; message: unknown; attempts: number }>(sql`
        update ${mailOutbox}
        set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${seconds(leaseMs)})
        where id in (
          select id from ${mailOutbox}
          where failed_at is null and written_at is null and next_attempt_at <= now()
          order by next_attempt_at
          limit ${limit}
          for update skip locked
        )
        returning id, message, attempts`);
      return rows.map((row) => ({
        id: row.id,
        message: typeof row.message === 'string' ? (JSON.parse(row.message) as unknown) : row.message,
        attempts: Number(row.attempts),
      }));
    },

    /** Delivered: the row (and the personal data in it) goes. Only while the claim is still ours. */
    async delivered(claim: ClaimedMail): Promise<void> {
      await db.rows(sql`delete from ${mailOutbox} where id = ${claim.id} and attempts = ${claim.attempts}`);
    },

    /**
     * Written to DATA_DIR/outbox/`file` (no SMTP): the message leaves the row, which remembers the
     * file until it expires or its recipient's account is deleted. false when the claim is no
     * longer ours (its lease ended, or the account was deleted meanwhile): the file is then
     * the caller's to remove.
     */
    async written(claim: ClaimedMail, file: string): Promise<boolean> {
      const rows = await db.rows<{ id: string }>(sql`
        update ${mailOutbox} set message = null, written_at = now(), file = ${file}
        where id = ${claim.id} and attempts = ${claim.attempts}
        returning id`);
      return rows.length > 0;
    },

    /**
     * Housekeeping: removes the rows of messages written or refused before `cutoff`, and returns
     * the written ones' file names (for the caller to remove). Messages still waiting for SMTP
     * stay: they are not delivered yet.
     */
    async expire(cutoff: Date): Promise<{ rows: number; files: string[] }> {
      const rows = await db.rows<{ file: string | null }>(sql`
        delete from ${mailOutbox}
        where written_at < ${cutoff.toISOString()}::timestamptz or failed_at < ${cutoff.toISOString()}::timestamptz
        returning file`);
      return { rows: rows.length, files: rows.flatMap((row) => (row.file ? [row.file] : [])) };
    },

    /** A passing failure: try again after `retryMs`. */
    async retryLater(claim: ClaimedMail, retryMs: number, error: string): Promise<void> {
      await db.rows(sql`
        update ${mailOutbox}
        set next_attempt_at = now() + make_interval(secs => ${seconds(retryMs)}), last_error = ${error}
        where id = ${claim.id} and attempts = ${claim.attempts}`);
    },

    /** Refused for good (a permanent SMTP answer, an unreadable row): kept, never tried again. */
    async failed(claim: ClaimedMail, error: string): Promise<void> {
      await db.rows(sql`
        update ${mailOutbox} set failed_at = now(), last_error = ${error}
        where id = ${claim.id} and attempts = ${claim.attempts}`);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
