import { eq, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, mailOutbox, teacherAccount, teacherAvailability, user } from '../../db/schema.js';
import { createMailTransport, createMailWorker, type MailMessage } from '../../mail/index.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../test/app.js';
import { testEngine } from '../../test/db.js';
import { mimePart, startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { lessonEventMails, plainName, reminderDueAt, reminderMails, when, type LessonMailContext } from './booking-mail.js';
import type { BookingRow } from './booking-repository.js';

let clock = Date.parse('2026-10-28T12:00:00Z');
const CLOCK = clock;
const NY = generatedTeacherId(1);
const SCHOOL_EMAIL = 'school@learnlingo.test';

let t: TestApp;
let teacherUser: TestUser;
let requestTeacher: TestUser;
const KOLKATA = generatedTeacherId(2);
beforeAll(async () => {
  t = await createTestApp({ seed: 2, now: () => clock, env: { SCHOOL_EMAIL, BOOKINGS_PER_ADDRESS_PER_HOUR: '10000', BOOKINGS_PER_EMAIL_PER_HOUR: '10000' } });
  // the teacher signs in with their own account: their e-mails go to its address (decision 118)
  teacherUser = await signUp(t.app, { name: 'Tea Cher' });
  await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, teacherUser.id));
  await t.db.orm.insert(teacherAccount).values({ teacherId: NY, userId: teacherUser.id });
  // a second teacher, in Kolkata, whose lessons are requests (decision 117)
  requestTeacher = await signUp(t.app, { name: 'Rita Request' });
  await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, requestTeacher.id));
  await t.db.orm.insert(teacherAccount).values({ teacherId: KOLKATA, userId: requestTeacher.id });
  await t.db.orm
    .update(teacherAvailability)
    .set({ timeZone: 'Asia/Kolkata', weeklyHours: Array.from({ length: 7 }, () => [[9, 12]]), bookingMode: 'request' })
    .where(eq(teacherAvailability.teacherId, KOLKATA));
  await t.db.orm.delete(mailOutbox); // the sign-ups' own e-mails
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
const book = (start: string, timeZone = 'Europe/Berlin') =>
  t.app.inject({ method: 'POST', url: '/api/bookings', payload: { ...form, teacherId: NY, start, timeZone } });
/** Books as a visitor and confirms by the link in the hold's e-mail (decision 102); the private link's token. */
async function bookAndConfirm(start: string, timeZone = 'Europe/Berlin'): Promise<string> {
  expect((await book(start, timeZone)).statusCode).toBe(201);
  const rows = await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).orderBy(mailOutbox.createdAt); // newest last: findLast takes the latest
  const hold = rows.map((r) => r.message as MailMessage).findLast((m) => m.subject.startsWith('Confirm'));
  const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(hold?.text ?? '')?.[1] ?? '';
  expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/confirm` })).statusCode).toBe(200);
  return token;
}
/** Removes the lessons' review requests (their own tests are in reviews.test.ts) and reminders (tested below). */
const dropReviewRequests = () =>
  t.db.rows(sql`delete from ${mailOutbox} where message->>'subject' like 'How was your %' or message->>'subject' like 'Tomorrow: %' returning id`);
/** The queued messages, oldest first, with when each is due. */
const queued = async () =>
  (await t.db.orm.select({ id: mailOutbox.id, message: mailOutbox.message, dueAt: mailOutbox.nextAttemptAt }).from(mailOutbox).orderBy(mailOutbox.createdAt)).map(
    (r) => ({ id: r.id, dueAt: r.dueAt, ...(r.message as MailMessage) }),
  );
const bookingOf = async (token: string) => {
  const lesson = (await t.app.inject({ method: 'GET', url: `/api/bookings/token/${token}` })).json<{ id: string }>();
  const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, lesson.id));
  return row!;
};
/** A raw message's Subject, its RFC 2047 words decoded. */
const subjectOf = (raw: string) =>
  (/^Subject: (.*(?:\r?\n .*)*)/m.exec(raw)?.[1] ?? '')
    .replace(/\r?\n /g, '')
    .replace(/=\?UTF-8\?Q\?(.*?)\?=/g, (_m, q: string) => Buffer.from(q.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'))
    .replace(/\?=\s*=\?UTF-8\?Q\?/g, '');
const icsOf = (m: MailMessage) => m.attachments?.[0]?.content ?? '';
const instantOf = (ics: string) => {
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics) as unknown[]).getFirstSubcomponent('vevent')!);
  return event.startDate.toJSDate().toISOString();
};

describe(`booking e-mails (${testEngine})`, () => {
  const servers: TestSmtp[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('a confirmed booking e-mails the learner in their zone, the teacher at their account’s address in theirs, and the school a copy', async () => {
    const token = await bookAndConfirm('2026-11-03T14:00:00Z');
    // the hold's link, then the learner's, the teacher's and the school's, the review request (reviews.test.ts) and two reminders
    expect(await outbox()).toHaveLength(7);
    await dropReviewRequests();

    const smtp = await startTestSmtp();
    servers.push(smtp);
    await worker(smtp.url).runOnce();
    expect(smtp.received).toHaveLength(4);
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
    expect(ics).toContain('SEQUENCE:0');

    const teacher = smtp.received.find((raw) => raw.includes(`To: ${teacherUser.email}`))!;
    expect(subjectOf(teacher)).toMatch(/^New lesson: .+trial lesson with Ada Lovelace, Tuesday 3 November 2026, 09:00–10:00 \(America\/New_York\)$/);
    const teacherText = mimePart(teacher, 'text/plain');
    // the teacher's own clock: 09:00 in New York; the learner's name and reason, not their address
    expect(teacherText).toContain('Tuesday 3 November 2026, 09:00–10:00 (America/New_York)');
    expect(teacherText).toContain('Reason for learning: Living abroad');
    expect(teacherText).not.toContain('ada@example.com');
    const teacherIcs = mimePart(teacher, 'filename=learnlingo-trial-lesson.ics');
    expect(/^UID:.+$/m.exec(teacherIcs)?.[0]).toBe(/^UID:.+$/m.exec(ics)?.[0]);

    const school = smtp.received.find((raw) => new RegExp(`^To: ${SCHOOL_EMAIL.replace('.', '\\.')}$`, 'm').test(raw))!;
    const schoolText = mimePart(school, 'text/plain');
    expect(schoolText).toContain('Tuesday 3 November 2026, 09:00–10:00 (America/New_York)');
    expect(schoolText).toContain('Ada Lovelace <ada@example.com>');
    expect(instantOf(mimePart(school, 'filename=learnlingo-trial-lesson.ics'))).toBe('2026-11-03T14:00:00.000Z');
  });

  it('a refused booking (the time is taken) queues nothing', async () => {
    const before = (await outbox()).length;
    expect((await book('2026-11-03T14:00:00Z')).statusCode).toBe(409);
    expect(await outbox()).toHaveLength(before);
  });

  it('a cancellation e-mails a CANCEL of the same UID at the next SEQUENCE; while the SMTP server is down nothing is lost', async () => {
    const token = await bookAndConfirm('2026-11-04T15:00:00Z');
    await dropReviewRequests();
    const bookedIcs = icsOf((await queued()).find((m) => m.to === 'ada@example.com' && m.subject.endsWith('is booked'))!);
    const probe = await startTestSmtp();
    const port = probe.port;
    await probe.close(); // nothing listens on `port` now
    const down = worker(`smtp://127.0.0.1:${port}`);
    await down.runOnce(); // the booking's four e-mails: refused by the network, kept
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/cancel` })).statusCode).toBe(200);
    expect((await bookingOf(token)).icsSequence).toBe(1);
    await down.runOnce();
    const kept = await outbox();
    expect(kept).toHaveLength(7);
    expect(kept.every((row) => row.attempts >= 1)).toBe(true);

    const smtp = await startTestSmtp({ port });
    servers.push(smtp);
    const deadline = Date.now() + 5000;
    while ((await outbox()).length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 60)); // the 50 ms backoff of this test's worker
      await down.runOnce();
    }
    expect(await outbox()).toHaveLength(0);
    expect(smtp.received).toHaveLength(7);
    const cancelled = smtp.received.find((raw) => /^To: ada@example\.com$/m.test(raw) && /^Subject: .+ was cancelled$/m.test(raw))!;
    const ics = mimePart(cancelled, 'filename=learnlingo-trial-lesson.ics');
    expect(ics).toContain('METHOD:CANCEL');
    expect(ics).toContain('STATUS:CANCELLED');
    expect(ics).toContain('SEQUENCE:1');
    expect(/^UID:.+$/m.exec(ics)?.[0]).toBe(/^UID:.+$/m.exec(bookedIcs)?.[0]);
    expect(instantOf(ics)).toBe('2026-11-04T15:00:00.000Z');
    // in the zone the learner booked in, as the booking's e-mail was (15:00 UTC is 16:00 in Berlin)
    expect(mimePart(cancelled, 'text/plain')).toContain('Wednesday 4 November 2026, 16:00–17:00 (Europe/Berlin)');
    const teacher = smtp.received.find((raw) => raw.includes(`To: ${teacherUser.email}`) && subjectOf(raw).startsWith('Cancelled by the learner: '))!;
    expect(mimePart(teacher, 'filename=learnlingo-trial-lesson.ics')).toContain('SEQUENCE:1');
  });

  it('a lesson gets two reminders due 24 h before it, each in its reader’s zone, across the US clock change; a cancel takes them back', async () => {
    // Sunday 1 November 2026, 09:00 in New York (EST since 06:00 UTC that day); 19:30 in Kolkata (+05:30)
    const token = await bookAndConfirm('2026-11-01T14:00:00Z', 'Asia/Kolkata');
    const row = await bookingOf(token);
    const reminders = (await queued()).filter((m) => m.subject.startsWith('Tomorrow:') && [row.reminderMailId, row.teacherReminderMailId].includes(m.id));
    expect(reminders).toHaveLength(2);
    // 24 hours of real time: Saturday 10:00 in New York (still EDT), not 09:00
    for (const r of reminders) expect(r.dueAt.toISOString()).toBe('2026-10-31T14:00:00.000Z');
    const learner = reminders.find((m) => m.to === 'ada@example.com')!;
    expect(learner.text).toContain('Sunday 1 November 2026, 19:30–20:30 (Asia/Kolkata)');
    expect(learner.text).toContain(`/bookings/${token}`);
    const teacher = reminders.find((m) => m.to === teacherUser.email)!;
    expect(teacher.subject).toMatch(/^Tomorrow: (\p{L}+ )?trial lesson with Ada Lovelace, Sunday 1 November 2026, 09:00–10:00 \(America\/New_York\)$/u);
    expect(teacher.text).toContain('Sunday 1 November 2026, 09:00–10:00 (America/New_York)');

    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/cancel` })).statusCode).toBe(200);
    const ids = new Set((await queued()).map((m) => m.id));
    expect(reminders.some((r) => ids.has(r.id))).toBe(false);
  });

  it('a lesson booked less than 24 h ahead gets no reminder', async () => {
    clock = Date.parse('2026-10-28T16:00:00Z');
    try {
      // Thursday 29 October, 09:00 in New York: 21 hours ahead (past the 12 h notice)
      const token = await bookAndConfirm('2026-10-29T13:00:00Z');
      const row = await bookingOf(token);
      expect(row.reminderMailId).toBeNull();
      expect(row.teacherReminderMailId).toBeNull();
      expect((await queued()).filter((m) => m.subject.startsWith('Tomorrow:') && m.text.includes('Thursday 29 October'))).toHaveLength(0);
    } finally {
      clock = CLOCK;
    }
  });

  it('when due, each reminder is sent once by two workers on one database; a cancelled lesson’s never', async () => {
    await dropReviewRequests();
    const kept = await bookAndConfirm('2026-11-05T14:00:00Z', 'America/Los_Angeles');
    const gone = await bookAndConfirm('2026-11-05T15:00:00Z');
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${gone}/cancel` })).statusCode).toBe(200);
    // everything but the reminders goes first (not this test's)
    await t.db.rows(sql`delete from ${mailOutbox} where message->>'subject' not like 'Tomorrow: %'`);
    // the clock reaches their time: due now on the database's clock, which the outbox goes by
    await t.db.rows(sql`update ${mailOutbox} set next_attempt_at = now() - interval '1 second'`);
    expect(await outbox()).toHaveLength(2);

    const smtp = await startTestSmtp({ delayMs: 30 });
    servers.push(smtp);
    const [a, b] = [worker(smtp.url), worker(smtp.url)];
    await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    await Promise.all([a.runOnce(), b.runOnce()]);
    expect(smtp.received).toHaveLength(2);
    expect(await outbox()).toHaveLength(0);
    const learner = smtp.received.find((raw) => /^To: ada@example\.com$/m.test(raw))!;
    // 14:00 UTC on Thursday 5 November: 06:00 in Los Angeles (PST since 1 November)
    expect(mimePart(learner, 'text/plain')).toContain('Thursday 5 November 2026, 06:00–07:00 (America/Los_Angeles)');
    expect(mimePart(learner, 'text/plain')).toContain(`/bookings/${kept}`);
    expect(smtp.received.some((raw) => raw.includes(`To: ${teacherUser.email}`))).toBe(true);
  });
});

describe(`a request’s e-mails keep one UID and grow its SEQUENCE (${testEngine})`, () => {
  it('requested (TENTATIVE, 0) → accepted (CONFIRMED, 1, reminders) → cancelled by the teacher (CANCEL, 2, reminders taken back)', async () => {
    await t.db.orm.delete(mailOutbox);
    // Friday 6 November 2026, 10:00 in Kolkata (04:30 UTC); the learner books from Paris
    const made = await t.app.inject({ method: 'POST', url: '/api/bookings', payload: { ...form, teacherId: KOLKATA, start: '2026-11-06T04:30:00.000Z', timeZone: 'Europe/Paris' } });
    expect(made.statusCode, made.body).toBe(201);
    const token = await (async () => {
      const hold = (await queued()).find((m) => m.subject.startsWith('Confirm'))!;
      return /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(hold.text)![1]!;
    })();
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/confirm` })).statusCode).toBe(200);
    const id = (await bookingOf(token)).id;
    const uid = `UID:${id}@learnlingo`;
    /** The newest e-mail of this step to the learner and to the teacher (their subjects), then the step's mail goes. */
    const step = async ([learnerSubject, teacherSubject]: [RegExp, RegExp]) => {
      const all = await queued();
      const found = [
        all.findLast((m) => m.to === 'ada@example.com' && learnerSubject.test(m.subject))!,
        all.findLast((m) => m.to === requestTeacher.email && teacherSubject.test(m.subject))!,
      ];
      await t.db.orm.delete(mailOutbox).where(sql`${mailOutbox.message}->>'subject' not like 'Tomorrow: %' and ${mailOutbox.message}->>'subject' not like 'How was%'`);
      return found;
    };

    const [asked, teacherAsked] = await step([/^Your request for an? .+ is sent$/, /^New request: /]);
    expect(asked!.text).toContain('Friday 6 November 2026, 05:30–06:30 (Europe/Paris)');
    expect(icsOf(asked!)).toContain(uid);
    expect(icsOf(asked!)).toMatch(/STATUS:TENTATIVE\r\nSEQUENCE:0/);
    expect(teacherAsked!.to).toBe(requestTeacher.email);
    expect(teacherAsked!.subject).toContain('Friday 6 November 2026, 10:00–11:00 (Asia/Kolkata)');
    expect(icsOf(teacherAsked!)).toContain(uid);
    expect(await bookingOf(token)).toMatchObject({ reminderMailId: null, teacherReminderMailId: null });

    const teacherCall = (path: string, payload?: object) =>
      t.app.inject({ method: 'POST', url: `/api/teach/lessons/${id}/${path}`, headers: { cookie: requestTeacher.cookie, origin: 'http://127.0.0.1:3000' }, ...(payload ? { payload } : {}) });
    expect((await teacherCall('accept')).statusCode).toBe(200);
    const [accepted, teacherAccepted] = await step([/ is confirmed$/, /^Confirmed: /]);
    expect(icsOf(accepted!)).toContain(uid);
    expect(icsOf(accepted!)).toMatch(/METHOD:PUBLISH[\s\S]*STATUS:CONFIRMED\r\nSEQUENCE:1/);
    expect(icsOf(teacherAccepted!)).toContain('SEQUENCE:1');
    const row = await bookingOf(token);
    expect(row.icsSequence).toBe(1);
    const reminders = (await queued()).filter((m) => [row.reminderMailId, row.teacherReminderMailId].includes(m.id));
    expect(reminders.map((m) => m.to).sort()).toEqual(['ada@example.com', requestTeacher.email].sort());
    for (const r of reminders) expect(r.dueAt.toISOString()).toBe('2026-11-05T04:30:00.000Z');

    expect((await teacherCall('cancel', { reason: 'A family matter' })).statusCode).toBe(200);
    const [cancelled, teacherCancelled] = await step([/ was cancelled by the teacher$/, /^Cancelled by you: /]);
    expect(cancelled!.text).toContain('Their reason: A family matter');
    expect(icsOf(cancelled!)).toContain(uid);
    expect(icsOf(cancelled!)).toMatch(/METHOD:CANCEL[\s\S]*STATUS:CANCELLED\r\nSEQUENCE:2/);
    expect(icsOf(teacherCancelled!)).toContain('SEQUENCE:2');
    const ids = new Set((await queued()).map((m) => m.id));
    expect(reminders.some((r) => ids.has(r.id))).toBe(false);
  });
});

describe('the times in each e-mail, in each reader’s zone', () => {
  const row = (start: string, learnerTimeZone: string | null = null): BookingRow & { start: Date } => ({
    id: '7d0c3b4e-1c1e-4d1f-9f1e-2a7d0c3b4e5f',
    userId: null,
    reason: 'Work',
    fullName: 'Ada Lovelace',
    email: 'ada@example.com',
    language: 'French',
    start: new Date(start),
    createdAt: new Date(CLOCK),
    cancelledAt: null,
    holdExpiresAt: null,
    learnerTimeZone,
    teacher: { id: NY, name: 'Jane', surname: 'Smith', avatarUrl: null, schedule: null },
  });
  const context = (learnerTimeZone: string, teacherTimeZone: string, extra: Partial<LessonMailContext> = {}): LessonMailContext => ({
    manageUrl: 'https://learnlingo.example/lessons',
    teachUrl: 'https://learnlingo.example/teach/lessons',
    learnerTimeZone,
    teacherTimeZone,
    teacherEmail: 'jane@example.com',
    schoolEmail: undefined,
    sequence: 0,
    ...extra,
  });

  it.each([
    // Europe's spring change (01:00 UTC on 28 March 2027): Berlin is +02:00 by then, Kolkata +05:30 always
    ['2027-03-28T09:00:00Z', 'Europe/Berlin', 'Sunday 28 March 2027, 11:00–12:00 (Europe/Berlin)', 'Asia/Kolkata', 'Sunday 28 March 2027, 14:30–15:30 (Asia/Kolkata)', 'Saturday 27 March 2027, 10:00 (Europe/Berlin)'],
    // the US autumn change (1 November 2026): west of UTC, and the day before in Los Angeles
    ['2026-11-01T14:00:00Z', 'America/Los_Angeles', 'Sunday 1 November 2026, 06:00–07:00 (America/Los_Angeles)', 'America/New_York', 'Sunday 1 November 2026, 09:00–10:00 (America/New_York)', 'Saturday 31 October 2026, 07:00 (America/Los_Angeles)'],
    // a teacher's evening in Kolkata is the learner's next morning in Auckland (+13:00 in summer)
    ['2026-12-10T14:30:00Z', 'Pacific/Auckland', 'Friday 11 December 2026, 03:30–04:30 (Pacific/Auckland)', 'Asia/Kolkata', 'Thursday 10 December 2026, 20:00–21:00 (Asia/Kolkata)', 'Thursday 10 December 2026, 03:30 (Pacific/Auckland)'],
  ])('a lesson at %s: the learner reads it in %s, the teacher in %s; its reminder is 24 h before', (start, learnerZone, learnerWhen, teacherZone, teacherWhen, learnerDue) => {
    const lesson = row(start, learnerZone);
    const mails = lessonEventMails({ kind: 'booked' }, lesson, context(learnerZone, teacherZone));
    expect(mails.learner!.text).toContain(learnerWhen);
    expect(mails.teacher!.subject).toContain(teacherWhen);
    expect(mails.teacher!.text).toContain(teacherWhen);
    const due = reminderDueAt(lesson.start);
    expect(lesson.start.getTime() - due.getTime()).toBe(24 * 3_600_000);
    expect(when(due, learnerZone, false)).toBe(learnerDue);
    const reminders = reminderMails(lesson, context(learnerZone, teacherZone));
    expect(reminders.learner!.text).toContain(learnerWhen);
    expect(reminders.teacher!.text).toContain(teacherWhen);
  });

  it('a request tells each side the deadline in their own zone; accept, decline and expiry keep the UID and grow the SEQUENCE', () => {
    const lesson = row('2027-03-28T09:00:00Z', 'Asia/Kolkata');
    const asked = lessonEventMails({ kind: 'requested', answerBy: new Date('2027-03-27T08:30:00Z') }, lesson, context('Asia/Kolkata', 'Europe/Berlin'));
    expect(asked.learner!.text).toContain('answers it by Saturday 27 March, 14:00 (Asia/Kolkata)');
    expect(asked.teacher!.text).toContain('by Saturday 27 March, 09:30 (Europe/Berlin)');
    expect(icsOf(asked.learner!)).toContain('STATUS:TENTATIVE');
    const uid = /^UID:.+$/m.exec(icsOf(asked.learner!))![0];
    const accepted = lessonEventMails({ kind: 'accepted' }, lesson, context('Asia/Kolkata', 'Europe/Berlin', { sequence: 1 }));
    expect(accepted.learner!.subject).toMatch(/is confirmed$/);
    expect(icsOf(accepted.learner!)).toMatch(/METHOD:PUBLISH[\s\S]*STATUS:CONFIRMED\r\nSEQUENCE:1/);
    for (const event of [{ kind: 'declined', reason: 'Ill that week' }, { kind: 'expired' }] as const) {
      const mails = lessonEventMails(event, lesson, context('Asia/Kolkata', 'Europe/Berlin', { sequence: 1 }));
      const ics = icsOf(mails.learner!);
      expect(ics).toContain('METHOD:CANCEL');
      expect(ics).toContain('STATUS:CANCELLED');
      expect(ics).toContain('SEQUENCE:1');
      expect(/^UID:.+$/m.exec(ics)![0]).toBe(uid);
      expect(/^UID:.+$/m.exec(icsOf(mails.teacher!))![0]).toBe(uid);
    }
    const declined = lessonEventMails({ kind: 'declined', reason: 'Ill that week' }, lesson, context('Asia/Kolkata', 'Europe/Berlin', { sequence: 1 }));
    expect(declined.learner!.text).toContain('Their reason: Ill that week');
    expect(declined.teacher!.text).toContain('Your reason: Ill that week');
  });

  it('a cancel says by whom and why, to each side', () => {
    const lesson = { ...row('2026-11-20T10:00:00Z', 'Europe/Berlin'), cancelledAt: new Date(CLOCK) };
    const byTeacher = lessonEventMails({ kind: 'cancelled', by: 'teacher', reason: 'A family matter' }, lesson, context('Europe/Berlin', 'Asia/Kolkata', { sequence: 2 }));
    expect(byTeacher.learner!.subject).toMatch(/was cancelled by the teacher$/);
    expect(byTeacher.learner!.text).toContain('the teacher cancelled your French trial lesson with Jane Smith on Friday 20 November 2026, 11:00–12:00 (Europe/Berlin).');
    expect(byTeacher.learner!.text).toContain('Their reason: A family matter');
    expect(byTeacher.teacher!.subject).toMatch(/^Cancelled by you: French trial lesson with Ada Lovelace, Friday 20 November 2026, 15:30–16:30 \(Asia\/Kolkata\)$/);
    expect(icsOf(byTeacher.teacher!)).toContain('SEQUENCE:2');
    const byLearner = lessonEventMails({ kind: 'cancelled', by: 'learner' }, lesson, context('Europe/Berlin', 'Asia/Kolkata'));
    expect(byLearner.teacher!.subject).toMatch(/^Cancelled by the learner: /);
    expect(byLearner.learner!.subject).toMatch(/was cancelled$/);
  });

  it('the school’s copy is optional and never a second e-mail to the teacher’s address; a teacher without an account gets none', () => {
    const lesson = row('2026-11-20T10:00:00Z');
    expect(lessonEventMails({ kind: 'booked' }, lesson, context('UTC', 'UTC')).school).toBeNull();
    expect(lessonEventMails({ kind: 'booked' }, lesson, context('UTC', 'UTC', { schoolEmail: 'JANE@example.com' })).school).toBeNull();
    const noAccount = lessonEventMails({ kind: 'booked' }, lesson, context('UTC', 'UTC', { teacherEmail: null, schoolEmail: SCHOOL_EMAIL }));
    expect(noAccount.teacher).toBeNull();
    expect(noAccount.school!.to).toBe(SCHOOL_EMAIL);
    expect(noAccount.school!.text).toContain('has no account');
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
    const mails = lessonEventMails({ kind: 'booked' }, { ...row, start: row.start! }, {
      manageUrl: 'https://learnlingo.example/bookings/x',
      teachUrl: 'https://learnlingo.example/teach/lessons',
      learnerTimeZone: 'UTC',
      teacherTimeZone: 'UTC',
      teacherEmail: 'jane@example.com',
      schoolEmail: SCHOOL_EMAIL,
      sequence: 0,
    });
    const messages = [mails.learner!, mails.teacher!, mails.school!];
    expect(messages).toHaveLength(3);
    for (const message of messages) {
      expect(message.html).toBeUndefined(); // plain text only: no markup to inject
      const nameLine = message.text.split('\n').find((line) => line.includes('Visit'))!.replace(' <ada@example.com>', '');
      expect(nameLine).not.toMatch(LINKIFIABLE);
      expect(nameLine.replaceAll('\u200b', '')).toContain('Visit https://evil.example now');
    }
  });
});
