import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, calendarFeed, mailOutbox, teacherAccount, teacherAvailability, user } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTestApp, signUp, type TestApp, type TestUser } from '../../test/app.js';
import { testEngine } from '../../test/db.js';

const CLOCK = Date.parse('2026-10-28T12:00:00Z');
const TEACHER = generatedTeacherId(1);
const OTHER_TEACHER = generatedTeacherId(2);

let t: TestApp;
let teacherUser: TestUser;
let learner: TestUser;
let otherLearner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ seed: 2, now: () => CLOCK, env: { BOOKINGS_PER_ADDRESS_PER_HOUR: '10000', BOOKINGS_PER_EMAIL_PER_HOUR: '10000' } });
  for (const id of [TEACHER, OTHER_TEACHER]) {
    await t.db.orm
      .update(teacherAvailability)
      .set({ timeZone: 'Asia/Kolkata', weeklyHours: Array.from({ length: 7 }, () => [[9, 12]]) })
      .where(eq(teacherAvailability.teacherId, id));
  }
  teacherUser = await signUp(t.app, { name: 'Tea Cher' });
  await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, teacherUser.id));
  await t.db.orm.insert(teacherAccount).values({ teacherId: TEACHER, userId: teacherUser.id });
  learner = await signUp(t.app, { name: 'Ada Lovelace' });
  otherLearner = await signUp(t.app, { name: 'Bob Other' });
  // confirmed addresses: their bookings are lessons at once (decision 102)
  for (const u of [learner, otherLearner]) await t.db.orm.update(user).set({ emailVerified: true }).where(eq(user.id, u.id));
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST', url: string, u?: TestUser) =>
  t.app.inject({ method, url, headers: u ? { cookie: u.cookie, origin: 'http://127.0.0.1:3000' } : {} });
const pathOf = (url: string) => new URL(url).pathname;
const book = async (u: TestUser, teacherId: string, start: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    headers: { cookie: u.cookie, origin: 'http://127.0.0.1:3000' },
    payload: { teacherId, start, reason: 'Living abroad', fullName: u.name, email: u.email, phone: '+44 20 7946 0958', timeZone: 'Europe/Paris' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
};
const events = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics) as unknown[]).getAllSubcomponents('vevent').map((v) => ({
    uid: v.getFirstPropertyValue('uid') as string,
    status: v.getFirstPropertyValue('status') as string,
    sequence: Number(v.getFirstPropertyValue('sequence')),
    summary: v.getFirstPropertyValue('summary') as string,
    description: v.getFirstPropertyValue('description') as string,
    start: (v.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
  }));

describe(`private calendar feeds (${testEngine})`, () => {
  let lessonId: string;
  let teacherUrl: string;

  it('a teacher asks for their URL (none until then); it lists their lessons with the e-mails’ UID, nothing of the learner but name, language and reason', async () => {
    expect((await api('GET', '/api/teach/calendar-feed', teacherUser)).json()).toEqual({ url: null });
    const renewed = await api('POST', '/api/teach/calendar-feed/renew', teacherUser);
    expect(renewed.statusCode).toBe(200);
    teacherUrl = renewed.json<{ url: string }>().url;
    expect(teacherUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    // shown again as it was: the same URL
    expect((await api('GET', '/api/teach/calendar-feed', teacherUser)).json()).toEqual({ url: teacherUrl });

    // 09:00 in Kolkata is 03:30 UTC
    lessonId = await book(learner, TEACHER, '2026-11-03T03:30:00Z');
    await book(otherLearner, OTHER_TEACHER, '2026-11-03T03:30:00Z');
    const feed = await t.app.inject({ method: 'GET', url: pathOf(teacherUrl) });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(feed.headers['cache-control']).toBe('private, no-store');
    const [event, ...others] = events(feed.body);
    expect(others).toEqual([]); // the other teacher's lesson is not in it
    expect(event).toMatchObject({ uid: `${lessonId}@learnlingo`, status: 'CONFIRMED', sequence: 0, start: '2026-11-03T03:30:00.000Z' });
    expect(event!.summary).toContain('with Ada Lovelace');
    expect(event!.description).toContain('Reason for learning: Living abroad');
    expect(feed.body).not.toContain(learner.email);
    expect(feed.body).not.toContain('7946');
    // the same UID as the .ics in the learner's e-mail
    const rows = await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).orderBy(mailOutbox.createdAt);
    const booked = rows.map((r) => r.message as MailMessage).findLast((m) => m.to === learner.email && m.subject.endsWith('is booked'))!;
    expect(booked.attachments?.[0]?.content).toContain(`UID:${lessonId}@learnlingo`);
  });

  it('a cancelled lesson stays in the feeds as STATUS:CANCELLED at the next SEQUENCE', async () => {
    expect((await api('POST', `/api/bookings/${lessonId}/cancel`, learner)).statusCode).toBe(200);
    const [event] = events((await t.app.inject({ method: 'GET', url: pathOf(teacherUrl) })).body);
    expect(event).toMatchObject({ uid: `${lessonId}@learnlingo`, status: 'CANCELLED', sequence: 1 });
  });

  it('a signed-in learner’s feed has their own lessons only, by the teacher’s name', async () => {
    const url = (await api('POST', '/api/calendar-feed/renew', learner)).json<{ url: string }>().url;
    const start = '2026-11-04T04:30:00.000Z';
    const id = await book(learner, OTHER_TEACHER, start);
    const mine = events((await t.app.inject({ method: 'GET', url: pathOf(url) })).body);
    expect(mine.map((e) => e.uid).sort()).toEqual([`${id}@learnlingo`, `${lessonId}@learnlingo`].sort());
    expect(mine.find((e) => e.uid === `${id}@learnlingo`)).toMatchObject({ status: 'CONFIRMED', start });
    expect(mine.every((e) => !e.summary.includes('Ada') && !e.description.includes('Living abroad'))).toBe(true);

    // a request waiting for the teacher (decision 117) is TENTATIVE; past its deadline unanswered, CANCELLED
    await t.db.orm.update(booking).set({ answerBy: new Date(CLOCK + 3_600_000) }).where(eq(booking.id, id));
    expect(events((await t.app.inject({ method: 'GET', url: pathOf(url) })).body).find((e) => e.uid === `${id}@learnlingo`)?.status).toBe('TENTATIVE');
    await t.db.orm.update(booking).set({ answerBy: new Date(CLOCK - 1) }).where(eq(booking.id, id));
    expect(events((await t.app.inject({ method: 'GET', url: pathOf(url) })).body).find((e) => e.uid === `${id}@learnlingo`)?.status).toBe('CANCELLED');
  });

  it('a wrong, malformed or renewed token answers 404; the database keeps no token', async () => {
    const fresh = (await api('POST', '/api/teach/calendar-feed/renew', teacherUser)).json<{ url: string }>().url;
    expect(fresh).not.toBe(teacherUrl);
    expect((await t.app.inject({ method: 'GET', url: pathOf(teacherUrl) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: pathOf(fresh) })).statusCode).toBe(200);
    const token = /calendar\/(.+)\.ics$/.exec(fresh)![1]!;
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [`/calendar/${wrong}.ics`, `/calendar/${token}`, '/calendar/x.ics', `/calendar/${token}.ics.ics`]) {
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode, path).toBe(404);
    }
    const stored = JSON.stringify(await t.db.orm.select().from(calendarFeed));
    expect(stored).not.toContain(token);
  });

  it('the URL is the owner’s only: 401 without a session, 403 for a learner on the teacher’s', async () => {
    expect((await api('GET', '/api/teach/calendar-feed')).statusCode).toBe(401);
    expect((await api('GET', '/api/calendar-feed')).statusCode).toBe(401);
    expect((await api('POST', '/api/teach/calendar-feed/renew', learner)).statusCode).toBe(403);
    expect((await api('GET', '/api/calendar-feed', otherLearner)).json()).toEqual({ url: null });
  });
});
