import { eq, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { mailOutbox, teacherAvailability } from '../../db/schema.js';
import { createMailTransport, createMailWorker, type MailMessage } from '../../mail/index.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { testEngine } from '../../test/db.js';
import { mimePart, startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { bookingMails, plainName } from './booking-mail.js';
import type { BookingRow } from './booking-repository.js';

const CLOCK = Date.parse('2026-10-28T12:00:00Z');
const NY = generatedTeacherId(1);
const SCHOOL_EMAIL = 'school@learnlingo.test';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 1, now: () => CLOCK, env: { SCHOOL_EMAIL } });
  await t.db.orm
    .update(teacherAvailability)
    .set({ timeZone: 'America/New_York', weeklyHours: Array.from({ length: 7 }, () => [[9, 11]]) })
    .where(eq(teacherAvailability.teacherId, NY));
});
afterAll(() => t.close());

const form = { reason: 'Living abroad', fullName: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0958' };
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const worker = (url: string) =>
  createMailWorker({
    db: t.db,
    transport: createMailTransport({ from: 'LearnLingo <no-reply@learnlingo.test>', smtpUrl: url, outboxDir: '/nonexistent', outboxDisplay: '-' }),
    log: silent,
    retryBaseMs: 50,
    retryMaxMs: 200,
  });
const outbox = () => t.db.rows<{ id: string; attempts: number }>(sql`select id, attempts from ${mailOutbox}`);
const book = (start: string) =>
  t.app.inject({ method: 'POST', url: '/api/bookings', payload: { ...form, teacherId: NY, start, timeZone: 'Europe/Berlin' } });
/** Books as a visitor and confirms by the link in the hold's e-mail (decision 102); the private link's token. */
async function bookAndConfirm(start: string): Promise<string> {
  expect((await book(start)).statusCode).toBe(201);
  const rows = await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).orderBy(mailOutbox.createdAt); // newest last: findLast takes the latest
  const hold = rows.map((r) => r.message as MailMessage).findLast((m) => m.subject.startsWith('Confirm'));
  const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(hold?.text ?? '')?.[1] ?? '';
  expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/confirm` })).statusCode).toBe(200);
  return token;
}
/** Removes the lessons' review requests (their own tests are in reviews.test.ts). */
const dropReviewRequests = () => t.db.rows(sql`delete from ${mailOutbox} where message->>'subject' like 'How was your %' returning id`);
const instantOf = (ics: string) => {
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics) as unknown[]).getFirstSubcomponent('vevent')!);
  return event.startDate.toJSDate().toISOString();
};

describe(`booking e-mails (${testEngine})`, () => {
  const servers: TestSmtp[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('a confirmed booking queues the learner’s and the school’s e-mails, which arrive at a real SMTP server with the .ics', async () => {
    const token = await bookAndConfirm('2026-11-03T14:00:00Z');
    // the hold's link, then the two, and the lesson's review request, due at its end (reviews.test.ts): not this file's
    expect(await outbox()).toHaveLength(4);
    await dropReviewRequests();

    const smtp = await startTestSmtp();
    servers.push(smtp);
    await worker(smtp.url).runOnce();
    expect(smtp.received).toHaveLength(3);
    expect(await outbox()).toHaveLength(0);

    const learner = smtp.received.find((raw) => /^To: ada@example\.com$/m.test(raw) && /^Subject: .+ is booked$/m.test(raw))!;
    expect(learner).toMatch(/^Subject: Your .+ trial lesson with .+ is booked$/m);
    const learnerText = mimePart(learner, 'text/plain');
    // 14:00 UTC is 15:00 in Berlin (the zone the learner picked the time in)
    expect(learnerText).toContain('Tuesday 3 November 2026, 15:00–16:00 (Europe/Berlin)');
    expect(learnerText).toContain(`/bookings/${token}`);
    const ics = mimePart(learner, 'filename=learnlingo-trial-lesson.ics');
    expect(instantOf(ics)).toBe('2026-11-03T14:00:00.000Z');
    expect(ics).toContain('METHOD:PUBLISH');

    const school = smtp.received.find((raw) => new RegExp(`^To: ${SCHOOL_EMAIL.replace('.', '\\.')}$`, 'm').test(raw))!;
    const schoolText = mimePart(school, 'text/plain');
    // the teacher's own clock: 09:00 in New York
    expect(schoolText).toContain('Tuesday 3 November 2026, 09:00–10:00 (America/New_York)');
    expect(schoolText).toContain('Ada Lovelace <ada@example.com>');
    expect(instantOf(mimePart(school, 'filename=learnlingo-trial-lesson.ics'))).toBe('2026-11-03T14:00:00.000Z');
  });

  it('a refused booking (the time is taken) queues nothing', async () => {
    const before = (await outbox()).length;
    expect((await book('2026-11-03T14:00:00Z')).statusCode).toBe(409);
    expect(await outbox()).toHaveLength(before);
  });

  it('a cancellation e-mails a CANCEL; while the SMTP server is down nothing is lost, and it arrives once it is back', async () => {
    const token = await bookAndConfirm('2026-11-04T15:00:00Z');
    await dropReviewRequests();
    const probe = await startTestSmtp();
    const port = probe.port;
    await probe.close(); // nothing listens on `port` now
    const down = worker(`smtp://127.0.0.1:${port}`);
    await down.runOnce(); // the booking's three e-mails: refused by the network, kept
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/cancel` })).statusCode).toBe(200);
    await down.runOnce();
    const kept = await outbox();
    expect(kept).toHaveLength(5);
    expect(kept.every((row) => row.attempts >= 1)).toBe(true);

    const smtp = await startTestSmtp({ port });
    servers.push(smtp);
    const deadline = Date.now() + 5000;
    while ((await outbox()).length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 60)); // the 50 ms backoff of this test's worker
      await down.runOnce();
    }
    expect(await outbox()).toHaveLength(0);
    expect(smtp.received).toHaveLength(5);
    const cancelled = smtp.received.find((raw) => /^To: ada@example\.com$/m.test(raw) && /^Subject: .+ was cancelled$/m.test(raw))!;
    const ics = mimePart(cancelled, 'filename=learnlingo-trial-lesson.ics');
    expect(ics).toContain('METHOD:CANCEL');
    expect(ics).toContain('STATUS:CANCELLED');
    expect(instantOf(ics)).toBe('2026-11-04T15:00:00.000Z');
    // in the zone the learner booked in, as the booking's e-mail was (15:00 UTC is 16:00 in Berlin)
    expect(mimePart(cancelled, 'text/plain')).toContain('Wednesday 4 November 2026, 16:00–17:00 (Europe/Berlin)');
  });
});

describe('the learner’s name in e-mails', () => {
  /** what mail clients make links of in plain text: a scheme, www., an address, a dotted host name */
  const LINKIFIABLE = /[a-z][a-z0-9+.-]*:\/\/|www\.|[\w.+-]+@[\w-]+\.[a-z]|[a-z0-9-]+\.(?:com|example|net|org|ru)\b/i;

  it.each(['Win at https://evil.example/x', 'www.evil.example', 'mail me: a@b.example', 'evil.com', 'J.Smith'])('%j reads the same but is no link', (name) => {
    const plain = plainName(name);
    expect(plain.replaceAll('\u200b', '')).toBe(name);
    expect(plain).not.toMatch(LINKIFIABLE);
  });

  it('breaks Unicode full stops too, which some clients read as a dot', () => {
    expect(plainName('evil\u3002com evil\uff0ecom evil\uff61com')).toBe('evil\u200b\u3002com evil\u200b\uff0ecom evil\u200b\uff61com');
  });

  it('the confirmation and the school copy carry a name stored before the form refused addresses, unlinkable', () => {
    const row: BookingRow = {
      id: '0b5c8a4e-1c1e-4d1f-9f1e-2a7d0c3b4e5f',
      userId: null,
      reason: 'Living abroad',
      fullName: 'Visit https://evil.example now',
      email: 'ada@example.com',
      language: 'French',
      start: new Date('2026-11-03T14:00:00Z'),
      createdAt: new Date(CLOCK),
      cancelledAt: null,
      holdExpiresAt: null,
      learnerTimeZone: null,
      teacher: { id: NY, name: 'Jane', surname: 'Smith', avatarUrl: null, schedule: null },
    };
    const messages = bookingMails('booked', { row, ics: 'BEGIN:VCALENDAR', manageUrl: 'https://learnlingo.example/bookings/x', learnerTimeZone: 'UTC', teacherTimeZone: 'UTC', schoolEmail: SCHOOL_EMAIL });
    expect(messages).toHaveLength(2);
    for (const message of messages) {
      expect(message.html).toBeUndefined(); // plain text only: no markup to inject
      const nameLine = message.text.split('\n').find((line) => line.includes('Visit'))!.replace(' <ada@example.com>', '');
      expect(nameLine).not.toMatch(LINKIFIABLE);
      expect(nameLine.replaceAll('\u200b', '')).toContain('Visit https://evil.example now');
    }
  });
});
