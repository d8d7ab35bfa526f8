import { createHash } from 'node:crypto';
import { lessonMessages, validationMessages as m, type BookingCreated, type Lesson, type SlotsResponse } from '@learnlingo/contract';
import { eq, sql } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redactUrl } from '../../app.js';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, mailOutbox, teacherAvailability, user as userTable } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { testEngine } from '../../test/db.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';
import { wallTime } from './schedule.js';

const HOUR = 3_600_000;
/** Wednesday 28 October 2026, 12:00 UTC: New York changes from EDT to EST on Sunday 1 November. */
const START_CLOCK = Date.parse('2026-10-28T12:00:00Z');
let clock = START_CLOCK;

/** t000001: America/New_York, every day 09:00–11:00; t000002: the school's hours (set below). */
const NY = generatedTeacherId(1);
const SCHOOL = generatedTeacherId(2);
const OTHER = generatedTeacherId(3);

const NO_LIMITS = { BOOKINGS_PER_ADDRESS_PER_HOUR: '10000', BOOKINGS_PER_EMAIL_PER_HOUR: '10000' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    seed: 3,
    now: () => clock,
    // this file books many times from one address; the limits have their own file
    env: { SCHOOL_TIME_ZONE: 'Europe/Kyiv', SCHOOL_HOURS: 'Mon-Fri 10:00-12:00', ...NO_LIMITS },
  });
  await t.db.orm
    .update(teacherAvailability)
    .set({ timeZone: 'America/New_York', weeklyHours: Array.from({ length: 7 }, () => [[9, 11]]) })
    .where(eq(teacherAvailability.teacherId, NY));
  await t.db.orm.delete(teacherAvailability).where(eq(teacherAvailability.teacherId, SCHOOL));
});
afterAll(() => t.close());
beforeEach(() => {
  clock = START_CLOCK;
});

const form = {
  reason: 'Career and business',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 (20) 7946-0958',
};

const slots = async (teacherId: string, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots${query}` });
  expect(res.statusCode).toBe(200);
  return res.json<SlotsResponse>();
};

const book = (payload: unknown, user?: TestUser) =>
  t.app.inject({
    method: 'POST',
    url: '/api/bookings',
    payload: payload as object,
    headers: user ? { cookie: user.cookie, origin: TEST_ORIGIN } : {},
  });

const as = (user: TestUser | undefined, method: 'GET' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: user ? { cookie: user.cookie, origin: TEST_ORIGIN } : {} });

let mailCounter = 0;

/** The private link's token in the newest "Confirm …" e-mail to `to` (the only place a hold's token is). */
async function holdLinkToken(to: string): Promise<string> {
  const rows = await t.db.orm
    .select({ message: mailOutbox.message })
    .from(mailOutbox)
    .where(sql`${mailOutbox.message}->>'to' = ${to}`)
    .orderBy(mailOutbox.createdAt);
  // the newest hold's e-mail (not the account's "Confirm your e-mail", nor an earlier hold's:
  // a learner who books twice gets two, and without the order the first could be taken again)
  const hold = rows.map((r) => r.message as MailMessage).findLast((m) => /^Confirm your .*trial lesson/.test(m.subject));
  const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(hold?.text ?? '')?.[1];
  if (!token) throw new Error(`no confirmation e-mail to ${to}`);
  return token;
}

/**
 * Books the teacher's first free slot at or after `after` (ISO), or the first one; a pending
 * booking (a visitor's, or an unconfirmed user's) is confirmed by the link in its e-mail.
 */
async function bookFree(teacherId: string, user?: TestUser, after?: string): Promise<BookingCreated & { token: string }> {
  const { slots: free } = await slots(teacherId, after ? `?from=${after}` : '');
  const email = user?.email ?? `ada+${(mailCounter += 1)}@example.com`;
  const res = await book({ ...form, email, teacherId, start: free[0] }, user);
  expect(res.statusCode).toBe(201);
  const created = res.json<BookingCreated>();
  if (created.token !== null) return { ...created, token: created.token };
  const token = await holdLinkToken(email);
  const confirmed = await as(undefined, 'POST', `/api/bookings/token/${token}/confirm`);
  expect(confirmed.statusCode).toBe(200);
  return { ...created, token, lesson: confirmed.json<Lesson>() };
}

describe('GET /api/teachers/:id/slots', () => {
  it("gives the teacher's hours in their zone across a DST change (09:00–11:00 New York = 13:00Z, then 14:00Z)", async () => {
    const body = await slots(NY);
    expect(body.timeZone).toBe('America/New_York');
    // window: 29 Oct 00:00Z (12 h ahead) … 11 Nov 12:00Z (14 days ahead)
    expect(body.slots[0]).toBe('2026-10-29T13:00:00.000Z');
    expect(body.slots).toContain('2026-10-31T14:00:00.000Z');
    expect(body.slots).not.toContain('2026-11-01T13:00:00.000Z');
    expect(body.slots).toContain('2026-11-01T14:00:00.000Z');
    expect(body.slots).toContain('2026-11-01T15:00:00.000Z');
    expect(body.slots.at(-1)).toBe('2026-11-10T15:00:00.000Z');
    expect(body.slots).toHaveLength(13 * 2);
    for (const slot of body.slots) {
      const w = wallTime(Date.parse(slot), 'America/New_York');
      expect([9, 10]).toContain(w.hour);
      expect(w.minute).toBe(0);
    }
  });

  it('starts 12 hours ahead and ends 14 days ahead', async () => {
    clock = Date.parse('2026-10-29T02:00:00Z'); // 12 h ahead: 14:00Z
    const body = await slots(NY);
    expect(body.slots[0]).toBe('2026-10-29T14:00:00.000Z');
    expect(body.slots).not.toContain('2026-10-29T13:00:00.000Z');
    // 14 days ahead: 12 Nov 02:00Z; the 11th's lessons are in, the 12th's are not
    expect(body.slots.at(-1)).toBe('2026-11-11T15:00:00.000Z');
  });

  it('narrows to from/to, and never outside the bookable window', async () => {
    const body = await slots(NY, '?from=2026-11-02T00:00:00Z&to=2026-11-03T00:00:00Z');
    expect(body.slots).toEqual(['2026-11-02T14:00:00.000Z', '2026-11-02T15:00:00.000Z']);
    expect((await slots(NY, '?from=2026-10-01T00:00:00Z&to=2026-10-29T14:00:00Z')).slots).toEqual(['2026-10-29T13:00:00.000Z']);
    expect((await slots(NY, '?from=2027-01-01T00:00:00Z')).slots).toEqual([]);
  });

  it("uses SCHOOL_HOURS in SCHOOL_TIME_ZONE for a teacher without hours", async () => {
    const body = await slots(SCHOOL, '?from=2026-10-29T00:00:00Z&to=2026-11-03T00:00:00Z');
    expect(body.timeZone).toBe('Europe/Kyiv');
    // Kyiv is UTC+2 in winter (from 25 Oct 2026): 10:00 and 11:00 → 08:00Z and 09:00Z; no weekend
    expect(body.slots).toEqual([
      '2026-10-29T08:00:00.000Z',
      '2026-10-29T09:00:00.000Z',
      '2026-10-30T08:00:00.000Z',
      '2026-10-30T09:00:00.000Z',
      '2026-11-02T08:00:00.000Z',
      '2026-11-02T09:00:00.000Z',
    ]);
  });

  it('400 for a bad date, 404 for an unknown teacher', async () => {
    const bad = await t.app.inject({ method: 'GET', url: `/api/teachers/${NY}/slots?from=yesterday` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { from: expect.any(String) } } });
    const missing = await t.app.inject({ method: 'GET', url: '/api/teachers/t999999/slots' });
    expect(missing.statusCode).toBe(404);
  });
});

describe('POST /api/bookings', () => {
  it('books a free slot for a user with a confirmed e-mail: 201 with the lesson and a private token; the slot is gone for the next learner', async () => {
    const start = '2026-11-03T14:00:00.000Z';
    const verified = await signUp(t.app);
    await t.db.orm.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, verified.id));
    const res = await book({ ...form, email: verified.email, teacherId: NY, start }, verified);
    expect(res.statusCode).toBe(201);
    const body = res.json<BookingCreated>() as BookingCreated & { token: string };
    expect(body.lesson).toMatchObject({
      start,
      end: '2026-11-03T15:00:00.000Z',
      status: 'upcoming',
      cancellable: true,
      language: expect.any(String),
      teacher: { id: NY, timeZone: 'America/New_York' },
    });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await slots(NY)).slots).not.toContain(start);

    const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, body.id));
    expect(row?.userId).toBe(verified.id);
    expect(row?.holdExpiresAt).toBeNull();
    // stored hashed: the token itself is nowhere in the row
    expect(row?.tokenHash).toBe(createHash('sha256').update(body.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(body.token);

    const again = await book({ ...form, teacherId: NY, start });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'SLOT_TAKEN', message: lessonMessages.slotTaken } });
  });

  it.each([
    ['outside the hours', '2026-11-03T17:00:00Z'],
    ['not on the hour', '2026-11-03T14:30:00Z'],
    ['less than 12 hours ahead', '2026-10-28T13:00:00Z'],
    ['more than 14 days ahead', '2026-11-12T14:00:00Z'],
    ['in the past', '2026-10-01T13:00:00Z'],
  ])('400 naming start for a start %s', async (_what, start) => {
    const res = await book({ ...form, teacherId: NY, start });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { start: lessonMessages.slotUnavailable } } });
  });

  it("takes the lesson's language from the teacher's, and refuses another", async () => {
    const [teacherRow] = await t.db.rows<{ languages: string[] }>(sql`select languages from teacher where id = ${NY}`);
    const languages = teacherRow!.languages;
    const last = languages.at(-1)!;
    const res = await book({ ...form, teacherId: NY, start: '2026-11-04T14:00:00Z', language: last });
    expect(res.statusCode).toBe(201);
    expect(res.json<BookingCreated>().lesson.language).toBe(last);
    const bad = await book({ ...form, teacherId: NY, start: '2026-11-04T15:00:00Z', language: 'Klingon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { language: "Choose one of the teacher's languages" } } });
  });

  it('ties the booking to the signed-in user', async () => {
    const user = await signUp(t.app);
    const created = await bookFree(OTHER, user);
    const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, created.id));
    expect(row?.userId).toBe(user.id);
  });

  it.each([
    ['reason', { reason: 'Because' }, m.reasonRequired],
    ['reason', { reason: undefined }, m.reasonRequired],
    ['fullName', { fullName: '   ' }, m.fullNameRequired],
    ['fullName', { fullName: 42 }, m.fullNameRequired],
    ['email', { email: 'nope' }, m.invalidEmail],
    ['email', { email: '' }, m.emailRequired],
    ['phone', { phone: '12-34' }, m.phoneInvalid],
    ['phone', { phone: 'call me' }, m.phoneInvalid],
    ['phone', { phone: '' }, m.phoneRequired],
    ['teacherId', { teacherId: '../etc' }, 'Invalid teacher id'],
    ['start', { start: undefined }, lessonMessages.slotRequired],
    ['start', { start: 'tomorrow at nine' }, lessonMessages.slotRequired],
    ['start', { start: 'x'.repeat(10_000) }, lessonMessages.slotRequired],
    ['extra', { extra: 'field' }, 'Unknown field'],
  ])('400 naming %s for %j', async (field, patch, message) => {
    const res = await book({ ...form, teacherId: NY, start: '2026-11-05T14:00:00Z', ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { [field]: message } } });
  });

  it('400 naming every field for an empty object; 404 for an unknown teacher with nothing stored', async () => {
    const res = await book({});
    expect(res.statusCode).toBe(400);
    const fields = res.json<{ error: { fields: Record<string, string> } }>().error.fields;
    expect(Object.keys(fields).sort()).toEqual(['email', 'fullName', 'phone', 'reason', 'start', 'teacherId']);
    const before = (await t.db.orm.select().from(booking)).length;
    const missing = await book({ ...form, teacherId: 't999999', start: '2026-11-05T14:00:00Z' });
    expect(missing.statusCode).toBe(404);
    expect((await t.db.orm.select().from(booking)).length).toBe(before);
  });

  it('the database itself refuses a second lesson at the same start (not a check in the code)', async () => {
    const { id } = await bookFree(OTHER);
    const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, id));
    const copy = { ...row!, id: crypto.randomUUID(), tokenHash: null };
    await expect(t.db.orm.insert(booking).values(copy)).rejects.toThrow();
    // a cancelled lesson does not hold its start
    await t.db.orm.update(booking).set({ cancelledAt: new Date() }).where(eq(booking.id, id));
    await expect(t.db.orm.insert(booking).values(copy)).resolves.toBeDefined();
  });
});

describe('cancelling', () => {
  it('frees the slot up to 12 hours before, and refuses inside 12 hours', async () => {
    const user = await signUp(t.app);
    const created = await bookFree(NY, user, '2026-11-06T00:00:00Z');
    const start = created.lesson.start!;
    expect((await slots(NY)).slots).not.toContain(start);

    const cancelled = await as(user, 'POST', `/api/bookings/${created.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Lesson>()).toMatchObject({ status: 'cancelled', cancellable: false, cancelledAt: expect.any(String) });
    expect((await slots(NY)).slots).toContain(start);
    // booked again by someone else
    const rebooked = await book({ ...form, teacherId: NY, start });
    expect(rebooked.statusCode).toBe(201);

    const late = await bookFree(NY, user, '2026-11-07T00:00:00Z');
    clock = Date.parse(late.lesson.start!) - 12 * HOUR + 60_000; // 11 h 59 min before
    const mine = await as(user, 'GET', `/api/bookings/${late.id}`);
    expect(mine.json<Lesson>()).toMatchObject({ status: 'upcoming', cancellable: false });
    const refused = await as(user, 'POST', `/api/bookings/${late.id}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'CANCEL_TOO_LATE', message: lessonMessages.cancelTooLate } });
    clock = Date.parse(late.lesson.start!) + 2 * HOUR;
    expect((await as(user, 'GET', `/api/bookings/${late.id}`)).json<Lesson>()).toMatchObject({ status: 'past', cancellable: false });
  });

  it('by the private link, and the link shows the booking', async () => {
    const created = await bookFree(NY, undefined, '2026-11-08T00:00:00Z');
    const shown = await as(undefined, 'GET', `/api/bookings/token/${created.token}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json<Lesson>()).toMatchObject({ id: created.id, status: 'upcoming', start: created.lesson.start });
    const cancelled = await as(undefined, 'POST', `/api/bookings/token/${created.token}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json<Lesson>().status).toBe('cancelled');
    // twice is fine
    expect((await as(undefined, 'POST', `/api/bookings/token/${created.token}/cancel`)).statusCode).toBe(200);
    expect((await slots(NY)).slots).toContain(created.lesson.start);
  });
});

describe('who may see a booking', () => {
  it("404 (not 403) for another learner's booking by id; 401 signed out; a wrong link is 404", async () => {
    const owner = await signUp(t.app);
    const other = await signUp(t.app);
    const created = await bookFree(OTHER, owner);
    for (const url of [`/api/bookings/${created.id}`, `/api/bookings/${created.id}/calendar.ics`]) {
      expect((await as(owner, 'GET', url)).statusCode).toBe(200);
      const res = await as(other, 'GET', url);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      expect((await as(undefined, 'GET', url)).statusCode).toBe(401);
    }
    expect((await as(other, 'POST', `/api/bookings/${created.id}/cancel`)).statusCode).toBe(404);
    expect((await as(other, 'GET', '/api/bookings')).json<{ items: Lesson[] }>().items.map((l) => l.id)).not.toContain(created.id);

    const wrong = created.token.slice(0, -1) + (created.token.endsWith('A') ? 'B' : 'A');
    expect((await as(undefined, 'GET', `/api/bookings/token/${wrong}`)).statusCode).toBe(404);
    expect((await as(undefined, 'POST', `/api/bookings/token/${wrong}/cancel`)).statusCode).toBe(404);
    expect((await as(undefined, 'GET', `/api/bookings/token/${wrong}/calendar.ics`)).statusCode).toBe(404);
    expect((await as(undefined, 'GET', '/api/bookings/token/short')).statusCode).toBe(400);
    expect((await as(owner, 'GET', '/api/bookings/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('My lessons and the calendar file', () => {
  it('lists upcoming soonest first, then past and cancelled; an old booking without a time reads as unscheduled', async () => {
    const user = await signUp(t.app);
    const later = await bookFree(NY, user, '2026-11-09T00:00:00Z');
    const sooner = await bookFree(NY, user, '2026-10-30T00:00:00Z');
    const gone = await bookFree(OTHER, user, '2026-11-09T00:00:00Z');
    await as(user, 'POST', `/api/bookings/${gone.id}/cancel`);
    const oldId = crypto.randomUUID();
    await t.db.orm.insert(booking).values({ id: oldId, teacherId: OTHER, userId: user.id, ...form });

    const res = await as(user, 'GET', '/api/bookings');
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: Lesson[] }>().items;
    expect(items.map((l) => [l.id, l.status])).toEqual([
      [sooner.id, 'upcoming'],
      [later.id, 'upcoming'],
      [gone.id, 'cancelled'],
      [oldId, 'unscheduled'],
    ]);
    expect(items[3]).toMatchObject({ start: null, end: null, language: null, cancellable: true });
    expect((await as(user, 'GET', `/api/bookings/${oldId}/calendar.ics`)).statusCode).toBe(404);
    expect((await as(undefined, 'GET', '/api/bookings')).statusCode).toBe(401);
  });

  it('the .ics parses, with the lesson instant in UTC, the teacher and the language', async () => {
    const user = await signUp(t.app);
    const created = await bookFree(NY, user, '2026-11-02T00:00:00Z');
    expect(created.lesson.start).toBe('2026-11-02T14:00:00.000Z'); // 09:00 EST
    for (const res of [
      await as(user, 'GET', `/api/bookings/${created.id}/calendar.ics`),
      await as(undefined, 'GET', `/api/bookings/token/${created.token}/calendar.ics`),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(res.headers['content-disposition']).toContain('.ics');
      const calendar = new ICAL.Component(ICAL.parse(res.body) as unknown[]);
      const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent')!);
      expect(event.startDate.toJSDate().toISOString()).toBe('2026-11-02T14:00:00.000Z');
      expect(event.endDate.toJSDate().toISOString()).toBe('2026-11-02T15:00:00.000Z');
      expect(event.summary).toContain(created.lesson.language!);
      expect(event.summary).toContain(`${created.lesson.teacher.name} ${created.lesson.teacher.surname}`);
      expect(event.uid).toBe(`${created.id}@learnlingo`);
    }
  });
});

describe('logs', () => {
  it('never show a private link (the request log of a real request)', async () => {
    const { PassThrough } = await import('node:stream');
    const stream = new PassThrough();
    const lines: string[] = [];
    stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const logged = await createTestApp({ logStream: stream });
    try {
      const token = 'Q'.repeat(43);
      expect((await logged.app.inject({ method: 'GET', url: `/api/bookings/token/${token}` })).statusCode).toBe(404);
      const log = lines.join('');
      expect(log).toContain('/api/bookings/token/[redacted]');
      expect(log).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it('redactUrl keeps everything but the token', () => {
    const token = 'a'.repeat(20) + 'B-_'.repeat(7) + 'xy';
    expect(redactUrl(`/bookings/${token}`)).toBe('/bookings/[redacted]');
    expect(redactUrl(`/api/bookings/token/${token}/calendar.ics`)).toBe('/api/bookings/token/[redacted]/calendar.ics');
    expect(redactUrl('/api/bookings/0b5c8a4e-1c1e-4d1f-9f1e-2a7d0c3b4e5f')).toBe('/api/bookings/0b5c8a4e-1c1e-4d1f-9f1e-2a7d0c3b4e5f');
  });
});

describe(`20 concurrent bookings of one slot (${testEngine})`, () => {
  let c: TestApp;
  beforeAll(async () => {
    // on PostgreSQL: 20 connections, so the 20 inserts really race in 20 transactions
    c = await createTestApp({ seed: 1, now: () => START_CLOCK, poolSize: 20, env: NO_LIMITS });
  });
  afterAll(() => c.close());

  it('exactly one gets 201, the others 409 SLOT_TAKEN, and one lesson is stored', async () => {
    const teacherId = generatedTeacherId(1);
    const res = await c.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots` });
    const start = res.json<SlotsResponse>().slots[0];
    expect(start).toBeDefined();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        c.app.inject({ method: 'POST', url: '/api/bookings', payload: { ...form, fullName: `Learner ${i}`, teacherId, start } }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json()).toMatchObject({ error: { code: 'SLOT_TAKEN' } });
    const rows = await c.db.orm.select().from(booking).where(eq(booking.teacherId, teacherId));
    expect(rows).toHaveLength(1);
    if (testEngine === 'postgres') {
      // they did overlap: more than one connection was busy
      const [{ n } = { n: 0 }] = await c.db.rows<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where datname = current_database()`);
      expect(n).toBeGreaterThan(1);
    }
  });
});
