import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase, type Database } from '../db/client.js';
import { mailOutbox } from '../db/schema.js';
import { createTestDatabase, testEngine, type TestDatabase } from '../test/db.js';
import { testEnv } from '../test/app.js';
import { mimePart, startTestSmtp, type TestSmtp, type TestSmtpOptions } from '../test/smtp.js';
import { enqueueMail, MailMessageError, type MailMessage } from './index.js';
import { createOutbox } from './outbox.js';
import { createMailTransport } from './transport.js';
import { createMailWorker, type MailLog } from './worker.js';

// ---------------------------------------------------------------- helpers

/** Records every log call as JSON, to check what the worker says (and that it never names a recipient). */
function recordingLog(): MailLog & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (obj: object, msg: string) => lines.push(JSON.stringify({ level, ...obj, msg }));
  return { lines, info: record('info'), warn: record('warn'), error: record('error') };
}

const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nSUMMARY:Trial lesson — français\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

let counter = 0;
function message(overrides: Partial<MailMessage> = {}): MailMessage {
  counter += 1;
  return { to: `learner${counter}@example.com`, subject: `Message ${counter}`, text: `Hello ${counter}`, ...overrides };
}

async function outboxRows(db: Database) {
  return db.rows<{ id: string; attempts: number; failed_at: unknown; last_error: string | null }>(
    sql`select id, attempts, failed_at, last_error from ${mailOutbox} order by created_at`,
  );
}

const until = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

// ---------------------------------------------------------------- tests

describe(`mail outbox and worker (${testEngine})`, () => {
  let test: TestDatabase;
  let db: Database;
  const smtps: TestSmtp[] = [];

  beforeAll(async () => {
    test = await createTestDatabase();
    db = test.db;
  });
  afterAll(() => test.drop());
  afterEach(async () => {
    await Promise.all(smtps.splice(0).map((s) => s.close()));
    await db.rows(sql`delete from ${mailOutbox}`);
  });

  const smtp = async (options?: TestSmtpOptions) => {
    const server = await startTestSmtp(options);
    smtps.push(server);
    return server;
  };
  /** Moves every pending message's next attempt into the past (as if the backoff had passed). */
  const makeDue = () => db.orm.execute(sql`update mail_outbox set next_attempt_at = now() - interval '1 second' where failed_at is null`);

  const smtpWorker = (url: string, log = recordingLog(), database = db) => ({
    log,
    worker: createMailWorker({
      db: database,
      transport: createMailTransport({ from: 'LearnLingo <no-reply@learnlingo.test>', smtpUrl: url, outboxDir: '/nonexistent', outboxDisplay: '-' }),
      log,
      // Long enough that no retry falls due while a test runs, however slow the machine;
      // a test makes a message due again with makeDue() instead of sleeping.
      retryBaseMs: 60_000,
      retryMaxMs: 600_000,
    }),
  });

  it('queues only with the transaction that enqueued it, and refuses a malformed message without writing', async () => {
    await db.orm
      .transaction(async (tx) => {
        await enqueueMail(tx, message());
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await outboxRows(db)).toHaveLength(0);

    const id = await db.orm.transaction((tx) => enqueueMail(tx, message()));
    expect((await outboxRows(db)).map((r) => r.id)).toEqual([id]);

    await expect(enqueueMail(db.orm, message({ subject: 'Hi\r\nBcc: everyone@example.com' }))).rejects.toThrow(MailMessageError);
    await expect(enqueueMail(db.orm, message({ to: 'a@example.com, b@example.com' }))).rejects.toThrow(/invalid mail message: to/);
    expect(await outboxRows(db)).toHaveLength(1);
  });

  it('delivers through SMTP with its attachment, deletes the row, and logs the id, never the address', async () => {
    const server = await smtp();
    const { worker, log } = smtpWorker(server.url);
    const id = await enqueueMail(db.orm, {
      to: 'ann.learner@example.com',
      subject: 'Your trial lesson',
      text: 'See you soon.',
      html: '<p>See you soon.</p>',
      attachments: [{ filename: 'lesson.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ICS }],
    });
    await worker.runOnce();

    expect(server.received).toHaveLength(1);
    const raw = server.received[0] as string;
    expect(raw).toMatch(/^To: ann\.learner@example\.com$/m);
    expect(raw).toMatch(/^From: LearnLingo <no-reply@learnlingo\.test>$/m);
    expect(raw).toMatch(/^Subject: Your trial lesson$/m);
    expect(mimePart(raw, 'filename=lesson.ics')).toBe(ICS);
    expect(raw).toMatch(/Content-Type: text\/html; charset=utf-8\r?\n(.+\r?\n)*\r?\n<p>See you soon\.<\/p>/);
    expect(await outboxRows(db)).toHaveLength(0);
    expect(log.lines.join('\n')).toContain(id);
    expect(log.lines.join('\n')).not.toContain('ann.learner');
  });

  it('loses nothing while the SMTP server is down and delivers once it is back', async () => {
    const probe = await startTestSmtp();
    const port = probe.port;
    await probe.close(); // nothing listens on `port` now
    const { worker, log } = smtpWorker(`smtp://127.0.0.1:${port}`);
    const first = message({ to: 'down.one@example.com' });
    const second = message({ to: 'down.two@example.com' });
    await enqueueMail(db.orm, first);
    await enqueueMail(db.orm, second);

    await worker.runOnce();
    let rows = await outboxRows(db);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.attempts === 1 && r.failed_at === null && r.last_error !== null)).toBe(true);
    expect(log.lines.filter((l) => l.includes('will retry'))).toHaveLength(2);

    // not due again before the backoff: a pass right now sends nothing and claims nothing
    await worker.runOnce();
    expect((await outboxRows(db)).every((r) => r.attempts === 1)).toBe(true);

    const server = await smtp({ port });
    await makeDue();
    await worker.runOnce();
    expect(server.received.map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1]).sort()).toEqual([first.subject, second.subject].sort());
    rows = await outboxRows(db);
    expect(rows).toHaveLength(0);
    expect(log.lines.join('\n')).not.toMatch(/down\.(one|two)/);
  });

  it('retries a temporary refusal (4xx) and keeps a permanent one (5xx) without trying again', async () => {
    let refusals = 0;
    const server = await smtp({
      answer: (raw) => {
        if (raw.includes('Subject: permanent')) return 550;
        if (raw.includes('Subject: temporary') && refusals++ === 0) return 451;
        return undefined;
      },
    });
    const { worker } = smtpWorker(server.url);
    await enqueueMail(db.orm, message({ subject: 'permanent' }));
    await enqueueMail(db.orm, message({ subject: 'temporary' }));
    await worker.runOnce();
    await makeDue();
    await worker.runOnce();
    await makeDue();
    await worker.runOnce();

    expect(server.received.map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1])).toEqual(['temporary']);
    const rows = await outboxRows(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attempts: 1, last_error: expect.stringContaining('550') });
    expect(rows[0]?.failed_at).not.toBeNull();
  });

  it('a claim is exclusive for its lease; a worker that died leaves its messages to be taken after it', async () => {
    const outbox = createOutbox(db);
    await enqueueMail(db.orm, message());
    const [claim] = await outbox.claim(10, 150);
    expect(claim?.attempts).toBe(1);
    expect(await outbox.claim(10, 150)).toEqual([]);
    await new Promise((r) => setTimeout(r, 250));
    const [again] = await outbox.claim(10, 150);
    expect(again).toMatchObject({ id: claim?.id, attempts: 2 });
    // the first claimant's late acknowledgement no longer touches the row
    await outbox.delivered(claim as NonNullable<typeof claim>);
    expect(await outboxRows(db)).toHaveLength(1);
  });

  it('several workers on one database (separate connections on PostgreSQL) send each message exactly once', async () => {
    const server = await smtp({ delayMs: 5 });
    const others: Database[] = [];
    const databases = [db];
    if (test.url) {
      for (let i = 0; i < 2; i += 1) {
        const other = await openDatabase({ engine: 'postgres', url: test.url, max: 2 });
        others.push(other);
        databases.push(other);
      }
    } else {
      databases.push(db, db);
    }
    try {
      const subjects: string[] = [];
      for (let i = 0; i < 30; i += 1) {
        subjects.push(`batch ${i}`);
        await enqueueMail(db.orm, message({ subject: `batch ${i}` }));
      }
      const workers = databases.map((d) => smtpWorker(server.url, recordingLog(), d).worker);
      await Promise.all(workers.map((w) => w.runOnce()));
      expect(server.received.map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1]).sort()).toEqual(subjects.sort());
      expect(await outboxRows(db)).toHaveLength(0);
    } finally {
      await Promise.all(others.map((o) => o.close()));
    }
  });

  describe('without SMTP_URL', () => {
    let dataDir: string;
    beforeAll(() => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-mail-'));
    });
    afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

    it('writes each message as a private .eml file under DATA_DIR/outbox and logs the path, not the recipient', async () => {
      const log = recordingLog();
      const outboxDir = path.join(dataDir, 'outbox');
      const worker = createMailWorker({
        db,
        transport: createMailTransport({ from: 'LearnLingo <no-reply@localhost>', outboxDir, outboxDisplay: 'data/outbox' }),
        log,
      });
      const id = await enqueueMail(db.orm, {
        to: 'eml.reader@example.com',
        subject: 'Reset your password',
        text: 'Open http://127.0.0.1:3000/reset-password?token=abc',
        attachments: [{ filename: 'lesson.ics', contentType: 'text/calendar', content: ICS }],
      });
      await worker.runOnce();

      const files = fs.readdirSync(outboxDir);
      expect(files).toHaveLength(1);
      const file = path.join(outboxDir, files[0] as string);
      expect(file.endsWith(`-${id}.eml`)).toBe(true);
      expect(fs.statSync(outboxDir).mode & 0o777).toBe(0o700);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const raw = fs.readFileSync(file, 'utf8');
      expect(raw).toMatch(/^To: eml\.reader@example\.com$/m);
      expect(raw).toContain('reset-password?token=abc');
      expect(mimePart(raw, 'filename=lesson.ics')).toBe(ICS);
      expect(await outboxRows(db)).toHaveLength(0);
      const logged = log.lines.join('\n');
      expect(logged).toContain(`mail written to data/outbox/${files[0]}`);
      expect(logged).not.toContain('eml.reader');
    });

    it('the server runs the worker: a queued message becomes a file without anyone asking', async () => {
      const appDir = path.join(dataDir, 'app');
      const app = await buildApp({
        env: testEnv({ DATA_DIR: appDir }),
        db,
        mailWorker: { pollMs: 20 },
      });
      try {
        await app.ready();
        const id = await enqueueMail(db.orm, message());
        await until(() => fs.existsSync(path.join(appDir, 'outbox')) && fs.readdirSync(path.join(appDir, 'outbox')).some((f) => f.includes(id)));
      } finally {
        await app.close();
      }
    });
  });
});
