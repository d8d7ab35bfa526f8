import { lessonMessages, NAME_WITH_ADDRESS, type BookingCreated, type Lesson, type SlotsResponse } from '@learnlingo/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import type { Database } from '../../db/client.js';
import { booking, bookingLimit, mailOutbox, user as userTable } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTwoServers, signUp, TEST_ORIGIN } from '../../test/app.js';
import { testEngine } from '../../test/db.js';
import { addressForLimit, mailboxForLimit } from './booking-limits.js';
import { sweepBookings } from './booking-routes.js';

// Issue 27: one visitor could take every slot and make the school e-mail anyone. Bookings are
// limited per address and per mailbox per hour, and a visitor's booking is a hold until the
// link in its e-mail is used (decision 102).

const HOUR = 3_600_000;
const START_CLOCK = Date.parse('2026-10-28T12:00:00Z');
let clock = START_CLOCK;
const SCHOOL_EMAIL = 'school@learnlingo.test';
const TEACHERS = [1, 2, 3].map(generatedTeacherId);

/**
 * Two servers on one database (on PostgreSQL, each with its own connections), as behind a
 * load balancer: the limits must count their bookings together.
 */
let a: FastifyInstance;
let b: FastifyInstance;
let db: Database;
let dropAll: () => Promise<void>;
beforeAll(async () => {
  const env = { BOOKINGS_PER_ADDRESS_PER_HOUR: '3', BOOKINGS_PER_EMAIL_PER_HOUR: '2', BOOKING_HOLD_MINUTES: '30', SCHOOL_EMAIL };
  ({ a, b, db, close: dropAll } = await createTwoServers({ seed: 3, env, now: () => clock }));
});
afterAll(() => dropAll());
beforeEach(async () => {
  clock = START_CLOCK;
  await db.orm.delete(bookingLimit);
  await db.orm.delete(booking);
  await db.orm.delete(mailOutbox);
});

const form = { reason: 'Living abroad', fullName: 'Ada Lovelace', phone: '+44 20 7946 0958' };
let ipCounter = 0;
const freshIp = () => `198.51.100.${(ipCounter += 1)}`;
let mailCounter = 0;
const freshEmail = () => `learner${(mailCounter += 1)}@example.com`;

/** The nth free slot (UTC) of a teacher, by app `app`. */
async function freeSlots(teacherId: string, app = a): Promise<string[]> {
  return (await app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots` })).json<SlotsResponse>().slots;
}

interface BookOptions {
  app?: FastifyInstance;
  ip?: string;
  email?: string;
  teacher?: number;
  slot?: number;
  fullName?: string;
  cookie?: string;
}
async function book(o: BookOptions = {}) {
  const teacherId = TEACHERS[o.teacher ?? 0]!;
  const start = (await freeSlots(teacherId, o.app))[o.slot ?? 0];
  return (o.app ?? a).inject({
    method: 'POST',
    url: '/api/bookings',
    remoteAddress: o.ip ?? freshIp(),
    headers: o.cookie ? { cookie: o.cookie, origin: TEST_ORIGIN } : {},
    payload: { ...form, fullName: o.fullName ?? form.fullName, email: o.email ?? freshEmail(), teacherId, start, timeZone: 'Europe/Berlin' },
  });
}

const mails = async () => (await db.orm.select({ message: mailOutbox.message }).from(mailOutbox)).map((r) => r.message as MailMessage);
const tokenIn = (text: string) => /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(text)?.[1] ?? '';
const confirm = (token: string, app = a) => app.inject({ method: 'POST', url: `/api/bookings/token/${token}/confirm` });
const byLink = (token: string) => a.inject({ method: 'GET', url: `/api/bookings/token/${token}` });

describe(`limits per address and per mailbox, counted together by two servers (${testEngine})`, () => {
  it('a fourth booking from one address within the hour is 429 with Retry-After, on either server; other addresses and the next hour are not', async () => {
    const ip = '203.0.113.7';
    expect((await book({ ip, app: a })).statusCode).toBe(201);
    expect((await book({ ip, app: b })).statusCode).toBe(201);
    clock += 20 * 60_000;
    expect((await book({ ip, app: a })).statusCode).toBe(201);
    const refused = await book({ ip, app: b });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(40 * 60));
    expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: 'Too many bookings in the last hour. Please try again in 40 minutes.' } });
    // nothing of the refused booking is kept: three holds, three e-mails
    expect(await db.orm.select().from(booking)).toHaveLength(3);
    expect(await mails()).toHaveLength(3);
    expect((await book({ app: b })).statusCode).toBe(201);
    clock += 40 * 60_000;
    expect((await book({ ip, app: a })).statusCode).toBe(201);
  });

  it('IPv6 clients count by /64; the stored keys are not the addresses', async () => {
    for (const ip of ['2001:db8:7:1::1', '2001:db8:7:1:aaaa::2', '2001:db8:7:1:ffff:ffff:ffff:ffff']) {
      expect((await book({ ip })).statusCode).toBe(201);
    }
    expect((await book({ ip: '2001:db8:7:1::99', app: b })).statusCode).toBe(429);
    expect((await book({ ip: '2001:db8:7:2::1', app: b })).statusCode).toBe(201);
    const keys = JSON.stringify(await db.orm.select().from(bookingLimit));
    expect(keys).not.toMatch(/2001|db8|example\.com/);
  });

  it('a third booking for one mailbox within the hour is 429, whatever its case, +tag or Gmail dots', async () => {
    expect((await book({ email: 'Ann.Lee+one@Example.com' })).statusCode).toBe(201);
    expect((await book({ email: 'ann.lee@example.com', app: b })).statusCode).toBe(201);
    const refused = await book({ email: 'ANN.LEE+three@EXAMPLE.COM' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('3600');
    expect((await book({ email: 'a.n.n@gmail.com' })).statusCode).toBe(201);
    expect((await book({ email: 'ann+x@googlemail.com', app: b })).statusCode).toBe(201);
    expect((await book({ email: 'A.nn@gmail.com' })).statusCode).toBe(429);
  });

  it('a refused booking (the time is taken) does not count', async () => {
    const ip = '203.0.113.8';
    expect((await book({ ip })).statusCode).toBe(201);
    const start = (await freeSlots(TEACHERS[1]!))[0];
    await db.orm.insert(booking).values({ id: crypto.randomUUID(), teacherId: TEACHERS[1]!, reason: 'Living abroad', fullName: 'X', email: 'x@example.com', phone: '1234567', start: new Date(start!) });
    for (let i = 0; i < 3; i += 1) {
      const taken = await a.inject({ method: 'POST', url: '/api/bookings', remoteAddress: ip, payload: { ...form, email: freshEmail(), teacherId: TEACHERS[1], start } });
      expect(taken.statusCode).toBe(409);
    }
    expect((await book({ ip })).statusCode).toBe(201);
    expect((await book({ ip })).statusCode).toBe(201);
    expect((await book({ ip })).statusCode).toBe(429);
  });

  it('concurrent bookings from one address on both servers: exactly the limit get through', async () => {
    const starts = (await freeSlots(TEACHERS[2]!)).slice(0, 6);
    const results = await Promise.all(
      starts.map((start, i) =>
        (i % 2 ? b : a).inject({
          method: 'POST',
          url: '/api/bookings',
          remoteAddress: '203.0.113.9',
          payload: { ...form, email: freshEmail(), teacherId: TEACHERS[2], start },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429]);
    expect(await db.orm.select().from(booking)).toHaveLength(3);
  });

  it('the keys: IPv4 as is, IPv6 by /64 (mapped IPv4 as IPv4), mailboxes folded', () => {
    expect(addressForLimit('203.0.113.7')).toBe('203.0.113.7');
    expect(addressForLimit('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressForLimit('2001:DB8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(addressForLimit('::1')).toBe('0:0:0:0::/64');
    // mapped IPv4 written out or in hex is that IPv4 address, not one bucket shared by all of them
    expect(addressForLimit('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressForLimit('::ffff:cb00:7107')).toBe('203.0.113.7');
    // a dotted IPv4 tail is two groups: the /64 is the first four
    expect(addressForLimit('a::b:c:d:e:1.2.3.4')).toBe('a:0:b:c::/64');
    expect(addressForLimit('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(mailboxForLimit(' Jo.Doe+News@GoogleMail.com ')).toBe('jodoe@gmail.com');
    expect(mailboxForLimit('jo.doe+x@example.org')).toBe('jo.doe@example.org');
  });
});

describe(`a visitor's booking is held until its e-mail link is used (${testEngine})`, () => {
  it('pending with no token in the answer; one e-mail, to the address only, with no name in it; the time is taken', async () => {
    const res = await book({ email: 'ada@example.com', fullName: 'Ada Lovelace' });
    expect(res.statusCode).toBe(201);
    const created = res.json<BookingCreated>();
    expect(created.token).toBeNull();
    expect(created.lesson).toMatchObject({ status: 'pending', cancellable: true, confirmBy: new Date(START_CLOCK + 30 * 60_000).toISOString() });
    expect(await freeSlots(TEACHERS[0]!)).not.toContain(created.lesson.start);

    const [hold, ...rest] = await mails();
    expect(rest).toHaveLength(0); // no school copy before it is confirmed
    expect(hold).toMatchObject({ to: 'ada@example.com', subject: expect.stringMatching(/^Confirm your .*trial lesson with /) });
    expect(hold!.attachments).toBeUndefined();
    expect(hold!.text).not.toContain('Ada');
    expect(hold!.text).toContain('by 13:30 (Europe/Berlin)'); // 12:30 UTC, in the learner's zone (CET)
    const token = tokenIn(hold!.text);
    expect((await byLink(token)).json<Lesson>()).toMatchObject({ status: 'pending' });
    expect((await a.inject({ method: 'GET', url: `/api/bookings/token/${token}/calendar.ics` })).statusCode).toBe(404);
  });

  it('confirming makes it a lesson and sends the confirmation with the .ics and the school copy; a second use changes nothing', async () => {
    const created = (await book({ email: 'ada@example.com' })).json<BookingCreated>();
    const token = tokenIn((await mails())[0]!.text);
    clock += 29 * 60_000;
    const confirmed = await confirm(token, b);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json<Lesson>()).toMatchObject({ id: created.id, status: 'upcoming', confirmBy: null, start: created.lesson.start });
    const sent = await mails();
    // the confirmation, the school's copy, and the lesson's review request (due at its end: reviews.test.ts)
    expect(sent.map((m) => m.to).sort()).toEqual(['ada@example.com', 'ada@example.com', 'ada@example.com', SCHOOL_EMAIL]);
    expect(sent.filter((m) => m.subject.startsWith('How was your'))).toHaveLength(1);
    const booked = sent.find((m) => m.subject.endsWith('is booked'))!;
    expect(booked.attachments?.[0]?.content).toContain('METHOD:PUBLISH');
    expect(booked.text).toContain(`/bookings/${token}`);
    expect(booked.text).toContain('(Europe/Berlin)');

    const again = await confirm(token);
    expect(again.statusCode).toBe(200);
    expect(again.json<Lesson>().status).toBe('upcoming');
    expect(await mails()).toHaveLength(4);
    // past the hold's time it stays a lesson
    clock += 2 * HOUR;
    expect((await byLink(token)).json<Lesson>().status).toBe('upcoming');
    expect(await freeSlots(TEACHERS[0]!)).not.toContain(created.lesson.start);
  });

  it('unconfirmed by its time, the hold frees the slot: the link says expired (410), someone else books it, and the sweep deletes it a day later', async () => {
    const created = (await book({ email: 'late@example.com' })).json<BookingCreated>();
    const token = tokenIn((await mails())[0]!.text);
    clock += 30 * 60_000;
    expect(await freeSlots(TEACHERS[0]!)).toContain(created.lesson.start);
    expect((await byLink(token)).json<Lesson>()).toMatchObject({ status: 'expired', cancellable: false, confirmBy: null });
    const late = await confirm(token);
    expect(late.statusCode).toBe(410);
    expect(late.json()).toMatchObject({ error: { code: 'BOOKING_EXPIRED', message: lessonMessages.holdExpired } });

    const other = await book({ app: b });
    expect(other.statusCode).toBe(201);
    expect(other.json<BookingCreated>().lesson.start).toBe(created.lesson.start);
    expect((await confirm(token)).statusCode).toBe(410);
    expect((await byLink(token)).json<Lesson>().status).toBe('expired');

    clock += 25 * HOUR;
    expect(await sweepBookings(db, clock)).toEqual({ holds: 2, limits: 4 }) // two addresses, two mailboxes;
    expect((await byLink(token)).statusCode).toBe(404);
    expect(await db.orm.select().from(bookingLimit)).toHaveLength(0);
  });

  it('concurrent bookings of a slot whose hold expired, on both servers: one gets it, the others 409', async () => {
    const created = (await book({ teacher: 2 })).json<BookingCreated>();
    clock += 30 * 60_000;
    const results = await Promise.all(
      [a, b, a, b].map((app) =>
        app.inject({
          method: 'POST',
          url: '/api/bookings',
          remoteAddress: freshIp(),
          payload: { ...form, email: freshEmail(), teacherId: TEACHERS[2], start: created.lesson.start },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    const live = await db.orm.select().from(booking).where(sql`${booking.cancelledAt} is null`);
    expect(live).toHaveLength(1);
  });

  it('cancelling a hold by its link frees the slot and e-mails no one', async () => {
    const created = (await book()).json<BookingCreated>();
    const token = tokenIn((await mails())[0]!.text);
    const cancelled = await a.inject({ method: 'POST', url: `/api/bookings/token/${token}/cancel` });
    expect(cancelled.json<Lesson>().status).toBe('cancelled');
    expect(await mails()).toHaveLength(1);
    expect(await freeSlots(TEACHERS[0]!)).toContain(created.lesson.start);
    expect((await confirm(token)).json<Lesson>().status).toBe('cancelled');
    expect(await mails()).toHaveLength(1);
  });

  it("a signed-in user's booking is held until their e-mail is confirmed; after that it is a lesson at once", async () => {
    const learner = await signUp(a);
    await db.orm.delete(mailOutbox); // the sign-up's own confirmation e-mail
    const held = await book({ cookie: learner.cookie, email: learner.email });
    expect(held.json<BookingCreated>()).toMatchObject({ token: null, lesson: { status: 'pending' } });
    await db.orm.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, learner.id));
    const direct = await book({ cookie: learner.cookie, email: learner.email.toUpperCase(), slot: 1 });
    expect(direct.json<BookingCreated>()).toMatchObject({ token: expect.any(String), lesson: { status: 'upcoming' } });
  });

  it("a confirmed user's booking for another address is held too: that address has proven nothing", async () => {
    const learner = await signUp(a);
    await db.orm.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, learner.id));
    await db.orm.delete(mailOutbox);
    const res = await book({ cookie: learner.cookie, email: 'someone.else@example.com', fullName: 'Ada Lovelace' });
    expect(res.json<BookingCreated>()).toMatchObject({ token: null, lesson: { status: 'pending' } });
    const sent = await mails();
    expect(sent.map((m) => m.to)).toEqual(['someone.else@example.com']); // the hold's one e-mail, no school copy
    expect(sent[0]!.text).not.toContain('Ada');
  });
});

describe('names that would be links', () => {
  it.each(['Visit https://evil.example now', 'https://evil.example', 'me@evil.example', 'www.evil.example', 'www\uff0eevil\uff0eexample'])('400 naming fullName for %j', async (fullName) => {
    const res = await book({ fullName });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { fullName: NAME_WITH_ADDRESS } } });
    const [{ n } = { n: -1 }] = await db.rows<{ n: number }>(sql`select count(*)::int as n from ${mailOutbox}`);
    expect(n).toBe(0);
  });

  it.each(['J.R.R. Tolkien', 'St. John Smith', 'Anne-Marie O’Neil', 'Dr. A. Müller'])('accepts %j', async (fullName) => {
    expect((await book({ fullName })).statusCode).toBe(201);
  });
});
