import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';
import { checkMailMessage, type MailMessage } from './message.js';

/**
 * Queues a message in the caller's transaction (or, given the database itself, on its own):
 * it is sent only if that transaction commits, and the request never waits for SMTP.
 * Returns the message's id, the only thing about it that may be logged.
 */
export async function enqueueMail(tx: Db, message: MailMessage): Promise<string> {
  const checked = checkMailMessage(message);
  const id = randomUUID();
  await tx.insert(mailOutbox).values({ id, message: checked });
  return id;
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
          where failed_at is null and next_attempt_at <= now()
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
