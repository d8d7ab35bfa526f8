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

async function writtenRows(db: Database) {
  return db.rows<{ id: string; message: unknown; file: string | null; written: boolean }>(
    sql`select id, message, file, written_at is not null as written from ${mailOutbox} order by created_at`,
  );
}

/** An .eml file in `dir` last written `ageMs` ago. */
function emlFile(dir: string, name: string, ageMs: number): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, name);
  fs.writeFileSync(file, 'To: someone@example.com\n\nold\n', { mode: 0o600 });
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(file, at, at);
  return file;
}

const DAY = 24 * 60 * 60_000;

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

  it('through SMTP nothing stays: the row goes once sent; a refused one and .eml files left from before expire with the retention', async () => {
    const server = await smtp({ answer: (raw) => (raw.includes('Subject: refused') ? 550 : undefined) });
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-smtp-outbox-'));
    try {
      const leftover = emlFile(outboxDir, '2026-01-01T00-00-00-000Z-old.eml', 8 * DAY);
      const recent = emlFile(outboxDir, '2026-01-01T00-00-00-000Z-recent.eml', 1 * DAY);
      let clock = Date.now();
      const log = recordingLog();
      const worker = createMailWorker({
        db,
        transport: createMailTransport({ from: 'LearnLingo <no-reply@learnlingo.test>', smtpUrl: server.url, outboxDir, outboxDisplay: '-' }),
        log,
        now: () => clock,
      });
      await enqueueMail(db.orm, message({ to: 'sent.once@example.com' }));
      const refused = await enqueueMail(db.orm, message({ subject: 'refused' }));
      await worker.runOnce();
      expect(server.received).toHaveLength(1);
      expect((await outboxRows(db)).map((r) => r.id)).toEqual([refused]);

      expect(await worker.housekeep()).toEqual({ rows: 0, files: 1 });
      expect([fs.existsSync(leftover), fs.existsSync(recent)]).toEqual([false, true]);
      clock += 7 * DAY + 60_000;
      expect(await worker.housekeep()).toEqual({ rows: 1, files: 1 });
      expect(await outboxRows(db)).toEqual([]);
      expect(fs.readdirSync(outboxDir)).toEqual([]);
      expect(log.lines.join('\n')).not.toContain('sent.once');
    } finally {
      fs.rmSync(outboxDir, { recursive: true, force: true });
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
      // the row remembers the file (for its expiry and its recipient's deletion), not the message
      expect(await writtenRows(db)).toEqual([{ id, message: null, file: files[0], written: true }]);
      const logged = log.lines.join('\n');
      expect(logged).toContain(`mail written to data/outbox/${files[0]}`);
      expect(logged).not.toContain('eml.reader');
    });

    it('a written .eml file is kept for the retention by the worker\'s clock, then housekeeping removes it and its row', async () => {
      const outboxDir = path.join(dataDir, 'expiry');
      let clock = Date.now();
      const worker = createMailWorker({
        db,
        transport: createMailTransport({ from: 'LearnLingo <no-reply@localhost>', outboxDir, outboxDisplay: 'data/outbox' }),
        log: recordingLog(),
        retentionMs: 7 * DAY,
        now: () => clock,
      });
      const id = await enqueueMail(db.orm, message());
      await worker.runOnce();
      const [file] = fs.readdirSync(outboxDir);
      expect(file).toMatch(new RegExp(`-${id}\\.eml$`));
      expect(fs.statSync(path.join(outboxDir, file as string)).mode & 0o777).toBe(0o600);

      clock += 6 * DAY;
      expect(await worker.housekeep()).toEqual({ rows: 0, files: 0 });
      expect(fs.readdirSync(outboxDir)).toEqual([file]);
      expect(await writtenRows(db)).toHaveLength(1);

      clock += 2 * DAY;
      expect(await worker.housekeep()).toEqual({ rows: 1, files: 1 });
      expect(fs.readdirSync(outboxDir)).toEqual([]);
      expect(await writtenRows(db)).toEqual([]);
    });

    it('a message whose row went while it was being written (its account deleted) leaves no file', async () => {
      const outboxDir = path.join(dataDir, 'gone');
      const eml = createMailTransport({ from: 'LearnLingo <no-reply@localhost>', outboxDir, outboxDisplay: 'data/outbox' });
      const transport = {
        ...eml,
        async send(mailId: string, m: MailMessage) {
          const sent = await eml.send(mailId, m);
          await db.rows(sql`delete from ${mailOutbox} where id = ${mailId}`);
          return sent;
        },
      };
      const worker = createMailWorker({ db, transport, log: recordingLog() });
      await enqueueMail(db.orm, message());
      await worker.runOnce();
      expect(fs.readdirSync(outboxDir)).toEqual([]);
    });

    it('the server housekeeps on its own: at start, .eml files older than OUTBOX_RETENTION_DAYS go, newer ones stay', async () => {
      const appDir = path.join(dataDir, 'app-retention');
      const old = emlFile(path.join(appDir, 'outbox'), '2026-01-01T00-00-00-000Z-a.eml', 2 * DAY);
      const fresh = emlFile(path.join(appDir, 'outbox'), '2026-01-01T00-00-00-000Z-b.eml', DAY / 2);
      const app = await buildApp({ env: testEnv({ DATA_DIR: appDir, OUTBOX_RETENTION_DAYS: '1' }), db, mailWorker: { pollMs: 20 } });
      try {
        await app.ready();
        await until(() => !fs.existsSync(old));
        expect(fs.existsSync(fresh)).toBe(true);
      } finally {
        await app.close();
      }
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
