import type { BookingCreated, Lesson, SlotsResponse, TeachAvailability, TeachLesson } from '@learnlingo/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import type { Database } from '../../db/client.js';
import { booking, bookingLimit, mailOutbox, schoolSettings, staffActivity, teacherAccount, user as userTable } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTwoServers, signUp, TEST_ORIGIN, type TestUser } from '../../test/app.js';
import { testEngine } from '../../test/db.js';
import { sweepRequests } from './lesson-actions.js';
import type { LessonEventContext } from './lesson-events.js';

/*
 * Instant or on request (issue 25, decision 117) through the API, on two servers sharing one
 * database (on PostgreSQL each with its own connections) and one controllable clock: a
 * request holds its slot until answer_by = min(made + 24 h, start − 1 h), across Europe's
 * autumn clock change; accept / decline / expiry race to exactly one outcome; the teacher's
 * cancel with a reason; the school's cut-off for learners and teachers alike.
 */

const HOUR = 3_600_000;
/** Saturday 24 October 2026, 08:00 UTC (10:00 in Berlin, summer time): Europe turns its clocks back at 01:00 UTC on Sunday. */
const START_CLOCK = Date.parse('2026-10-24T08:00:00Z');
let clock = START_CLOCK;
const SCHOOL_EMAIL = 'school@learnlingo.test';
const ON_REQUEST = generatedTeacherId(1);
const INSTANT = generatedTeacherId(2);
const everyDay = (from: string, to: string) => Array.from({ length: 7 }, () => [{ from, to }]);
const BERLIN = { timeZone: 'Europe/Berlin', weeklyHours: everyDay('08:00', '20:00'), noticeHours: 0, horizonDays: 14 };

let a: FastifyInstance;
let b: FastifyInstance;
let db: Database;
let second: Database;
let dropAll: () => Promise<void>;
let teacher: TestUser;
let otherTeacher: TestUser;
let learner: TestUser;
const events: LessonEventContext = { schoolSchedule: { timeZone: 'UTC', hours: [] }, schoolEmail: SCHOOL_EMAIL, publicOrigin: 'http://127.0.0.1:3000' };

beforeAll(async () => {
  const env = { BOOKINGS_PER_ADDRESS_PER_HOUR: '10000', BOOKINGS_PER_EMAIL_PER_HOUR: '10000', SCHOOL_EMAIL };
  ({ a, b, db, second, close: dropAll } = await createTwoServers({ seed: 3, env, now: () => clock, secondPoolSize: 4 }));
  teacher = await signUp(a, { name: 'Tea Cher' });
  otherTeacher = await signUp(a);
  learner = await signUp(a, { name: 'Ada Lovelace' });
  await db.orm.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, learner.id));
  for (const [u, teacherId] of [
    [teacher, ON_REQUEST],
    [otherTeacher, INSTANT],
  ] as const) {
    await db.orm.update(userTable).set({ role: 'teacher' }).where(eq(userTable.id, u.id));
    await db.orm.insert(teacherAccount).values({ teacherId, userId: u.id });
  }
  const put = await call(a, 'PUT', '/api/teach/availability', teacher, { ...BERLIN, bookingMode: 'request' });
  expect(put.statusCode).toBe(200);
  expect(put.json<TeachAvailability>().bookingMode).toBe('request');
  expect((await call(a, 'PUT', '/api/teach/availability', otherTeacher, BERLIN)).statusCode).toBe(200);
});
afterAll(() => dropAll());
beforeEach(async () => {
  clock = START_CLOCK;
  await db.orm.delete(booking);
  await db.orm.delete(mailOutbox);
  await db.orm.delete(bookingLimit);
  await db.orm.delete(schoolSettings);
});

function call(app: FastifyInstance, method: 'GET' | 'PUT' | 'POST', url: string, who?: TestUser, payload?: unknown) {
  return app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(who ? { cookie: who.cookie } : {}) }, ...(payload === undefined ? {} : { payload: payload as object }) });
}
const form = { reason: 'Living abroad', fullName: 'Ada Lovelace', phone: '+44 20 7946 0958', timeZone: 'Europe/Berlin' };
const book = (start: string, o: { teacherId?: string; who?: TestUser | null; app?: FastifyInstance; email?: string } = {}) =>
  call(o.app ?? a, 'POST', '/api/bookings', o.who === null ? undefined : (o.who ?? learner), {
    ...form,
    teacherId: o.teacherId ?? ON_REQUEST,
    email: o.email ?? learner.email,
    start,
  });
const slots = async (teacherId = ON_REQUEST) => (await call(a, 'GET', `/api/teachers/${teacherId}/slots`)).json<SlotsResponse>().slots;
const answer = (action: 'accept' | 'decline' | 'cancel', id: string, o: { app?: FastifyInstance; who?: TestUser; body?: object } = {}) =>
  call(o.app ?? a, 'POST', `/api/teach/lessons/${id}/${action}`, o.who ?? teacher, o.body ?? (action === 'accept' ? undefined : {}));
const mails = async () => (await db.orm.select({ message: mailOutbox.message }).from(mailOutbox).orderBy(mailOutbox.createdAt)).map((r) => r.message as MailMessage);
const toLearner = async () => (await mails()).filter((m) => m.to === learner.email);
const myLesson = async (id: string) => (await call(a, 'GET', `/api/bookings/${id}`, learner)).json<Lesson>();

/** Makes a request for `start` and answers its id (201 checked). */
async function request(start: string, teacherId = ON_REQUEST): Promise<BookingCreated> {
  const res = await book(start, { teacherId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<BookingCreated>();
}

describe(`a request holds its slot until the teacher answers (${testEngine})`, () => {
  it("the teacher's booking mode: 400 naming the field for a wrong one; left out of a PUT, it stays", async () => {
    const wrong = await call(a, 'PUT', '/api/teach/availability', teacher, { ...BERLIN, bookingMode: 'sometimes' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: { fields: { bookingMode: "Choose 'instant' or 'request'" } } });
    expect((await call(b, 'PUT', '/api/teach/availability', teacher, BERLIN)).json<TeachAvailability>().bookingMode).toBe('request');
    expect((await call(a, 'GET', '/api/teach/availability', otherTeacher)).json<TeachAvailability>().bookingMode).toBe('instant');
  });

  it('answer_by is 24 elapsed hours across the clock change, never later than an hour before the start; starts too soon to answer are not offered', async () => {
    // Sunday 25 October 09:00 in Berlin (winter time again) = 08:00 UTC: an hour before is 07:00 UTC, sooner than a day
    const sunday = await request('2026-10-25T08:00:00Z');
    expect(sunday.lesson).toMatchObject({ status: 'requested', answerBy: '2026-10-25T07:00:00.000Z', cancellable: true, cancelCutoffHours: 12 });
    // Monday 26 October 10:00 in Berlin = 09:00 UTC: 24 hours after 10:00 summer time is 09:00 winter time (not 10:00)
    const monday = await request('2026-10-26T09:00:00Z');
    expect(monday.lesson.answerBy).toBe('2026-10-25T08:00:00.000Z');
    expect(monday.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const requested = (await toLearner()).find((m) => m.subject.includes('is sent') && m.text.includes('Monday 26 October 2026, 10:00'));
    expect(requested?.text).toContain('answers it by Sunday 25 October, 09:00 (Europe/Berlin)');
    expect((await mails()).filter((m) => m.to === SCHOOL_EMAIL && m.subject.startsWith('New request:'))).toHaveLength(2);

    // the slot is held: not offered, not bookable by anyone else; no calendar file for a request
    const offered = await slots();
    expect(offered).not.toContain('2026-10-25T08:00:00.000Z');
    expect((await book('2026-10-25T08:00:00Z', { app: b })).statusCode).toBe(409);
    expect((await call(a, 'GET', `/api/bookings/${sunday.id}/calendar.ics`, learner)).statusCode).toBe(404);
    // notice 0, but a request's teacher needs an hour to answer before the hour before the start: from 10:00 UTC on
    expect(offered[0]).toBe('2026-10-24T10:00:00.000Z');
    expect((await book('2026-10-24T09:00:00Z')).json()).toMatchObject({ error: { fields: { start: expect.any(String) } } });
    // the instant teacher's notice 0 is theirs as it was
    expect((await slots(INSTANT))[0]).toBe('2026-10-24T08:00:00.000Z');
  });

  it('unanswered by its deadline, it is expired at once (answers refused), the sweep tells the learner once across two servers, and the slot is free', async () => {
    const made = await request('2026-10-25T08:00:00Z');
    clock = Date.parse('2026-10-25T07:00:00Z') - 1;
    expect((await myLesson(made.id)).status).toBe('requested');
    clock += 1;
    // at the deadline, before any sweep: expired for everyone
    expect(await myLesson(made.id)).toMatchObject({ status: 'expired', cancelledBy: 'expired', answerBy: null, cancellable: false });
    const late = await answer('accept', made.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: { code: 'LESSON_STATE', message: 'This request was not answered in time, so the time is free again.' } });
    // both servers sweep at once: one expiry, one e-mail
    const [one, two] = await Promise.all([sweepRequests(db, events, clock), sweepRequests(second, events, clock)]);
    expect(one + two).toBe(1);
    const told = (await toLearner()).filter((m) => m.subject.includes('was not answered'));
    expect(told).toHaveLength(1);
    expect(told[0]!.text).toContain('did not answer your request');
    const [row] = await db.orm.select().from(booking).where(eq(booking.id, made.id));
    expect(row).toMatchObject({ cancelledBy: 'expired', cancelledAt: new Date('2026-10-25T07:00:00Z') });
    // nothing counts against the teacher: no activity row of theirs
    expect(await db.orm.select().from(staffActivity).where(eq(staffActivity.action, 'lesson.decline'))).toHaveLength(0);
    // and someone else takes the time
    expect((await book('2026-10-25T08:00:00Z', { teacherId: ON_REQUEST })).statusCode).toBe(400); // 07:00 UTC now: less than 2 h ahead
    expect((await book('2026-10-25T10:00:00Z')).statusCode).toBe(201);
  });

  it('an expired request not swept yet gives its slot to the next booking, and its learner is told in that transaction', async () => {
    const made = await request('2026-10-26T09:00:00Z');
    clock = Date.parse('2026-10-25T08:00:00Z');
    expect((await slots()).includes('2026-10-26T09:00:00.000Z')).toBe(true);
    const again = await book('2026-10-26T09:00:00Z', { app: b });
    expect(again.statusCode).toBe(201);
    expect((await db.orm.select().from(booking).where(eq(booking.id, made.id)))[0]?.cancelledBy).toBe('expired');
    expect((await toLearner()).filter((m) => m.subject.includes('was not answered'))).toHaveLength(1);
  });
});

describe(`the teacher's answers race to exactly one outcome (${testEngine})`, () => {
  it('four concurrent accepts on two servers: one 200, three 409, one e-mail with the calendar file', async () => {
    const made = await request('2026-10-26T09:00:00Z');
    const results = await Promise.all([a, b, a, b].map((app) => answer('accept', made.id, { app })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const won = results.find((r) => r.statusCode === 200)!.json<TeachLesson>();
    expect(won).toMatchObject({ id: made.id, state: 'confirmed', learner: { fullName: 'Ada Lovelace' }, answerBy: null, cancellable: true });
    expect(results.find((r) => r.statusCode === 409)!.json()).toMatchObject({ error: { message: 'This lesson is already confirmed.' } });
    const accepted = (await toLearner()).filter((m) => m.subject.endsWith('is confirmed'));
    expect(accepted).toHaveLength(1);
    expect(accepted[0]!.attachments?.[0]?.contentType).toContain('method=PUBLISH');
    expect(await myLesson(made.id)).toMatchObject({ status: 'upcoming', answerBy: null });
    expect((await call(a, 'GET', `/api/bookings/${made.id}/calendar.ics`, learner)).statusCode).toBe(200);
    const [activity] = await db.orm.select().from(staffActivity).where(eq(staffActivity.action, 'lesson.accept'));
    expect(activity).toMatchObject({ actorUserId: teacher.id, subjectType: 'teacher', subjectId: ON_REQUEST });
  });

  it('accept against decline, and accept against the sweep at the deadline: one outcome each, told once', async () => {
    const first = await request('2026-10-26T09:00:00Z');
    const [x, y] = await Promise.all([answer('accept', first.id), answer('decline', first.id, { app: b, body: { reason: 'Ill that week' } })]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    const state = (await myLesson(first.id)).status;
    expect(state === 'upcoming' ? x.statusCode : y.statusCode).toBe(200);
    expect((await toLearner()).filter((m) => /is confirmed|was declined/.test(m.subject))).toHaveLength(1);

    const second_ = await request('2026-10-26T12:00:00Z');
    clock = Date.parse(second_.lesson.answerBy!) - 1;
    // the sweep runs as of the deadline while the teacher answers a moment before it
    const [accept, swept] = await Promise.all([answer('accept', second_.id, { app: b }), sweepRequests(db, events, clock + 1)]);
    expect(accept.statusCode === 200 ? 0 : 1).toBe(swept);
    const row = (await db.orm.select().from(booking).where(eq(booking.id, second_.id)))[0]!;
    expect(accept.statusCode === 200 ? row.acceptedAt !== null && row.cancelledAt === null : row.cancelledBy === 'expired').toBe(true);
  });

  it("declines with the reason told to the learner; the slot is free; another teacher's lesson is 404, a learner 403", async () => {
    const made = await request('2026-10-26T09:00:00Z');
    expect((await answer('accept', made.id, { who: otherTeacher })).statusCode).toBe(404);
    expect((await call(a, 'POST', `/api/teach/lessons/${made.id}/accept`, learner)).statusCode).toBe(403);
    expect((await answer('decline', made.id, { body: { reason: 'x'.repeat(501) } })).json()).toMatchObject({ error: { fields: { reason: expect.any(String) } } });
    const res = await answer('decline', made.id, { body: { reason: 'I am away that week' } });
    expect(res.json<TeachLesson>()).toMatchObject({ state: 'declined', cancelledBy: 'declined', cancelReason: 'I am away that week' });
    expect(await myLesson(made.id)).toMatchObject({ status: 'declined', cancelReason: 'I am away that week', cancellable: false });
    expect((await toLearner()).find((m) => m.subject.includes('was declined'))?.text).toContain('Their reason: I am away that week');
    expect(await slots()).toContain('2026-10-26T09:00:00.000Z');
    // a decline without a body at all is fine too
    const next = await request('2026-10-26T10:00:00Z');
    const bare = await call(a, 'POST', `/api/teach/lessons/${next.id}/decline`, teacher);
    expect(bare.statusCode, bare.body).toBe(200);
  });
});

describe(`cancelling, and the school's cut-off for both sides (${testEngine})`, () => {
  it('the teacher cancels a confirmed lesson with a reason (required), up to the cut-off; a request is declined, not cancelled', async () => {
    const made = await request('2026-10-26T09:00:00Z');
    expect((await answer('cancel', made.id, { body: { reason: 'Sorry' } })).json()).toMatchObject({ error: { code: 'LESSON_STATE' } });
    expect((await answer('accept', made.id)).statusCode).toBe(200);
    expect((await answer('cancel', made.id, { body: { reason: '   ' } })).json()).toMatchObject({ error: { fields: { reason: 'Say why in a few words' } } });
    // 11 hours before the start: past the school's 12
    clock = Date.parse('2026-10-25T22:00:00Z');
    const late = await answer('cancel', made.id, { body: { reason: 'Sorry' } });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: { code: 'CANCEL_TOO_LATE', message: 'A lesson can be cancelled only up to 12 hours before it starts.' } });
    // the school lowers its cut-off to 6 hours: now the teacher may
    await db.orm.insert(schoolSettings).values({ id: 1, cancelCutoffHours: 6 });
    const res = await answer('cancel', made.id, { app: b, body: { reason: 'My child is ill' } });
    expect(res.json<TeachLesson>()).toMatchObject({ state: 'cancelled', cancelledBy: 'teacher', cancelReason: 'My child is ill' });
    const told = (await toLearner()).find((m) => m.subject.includes('cancelled by the teacher'))!;
    expect(told.text).toContain('Their reason: My child is ill');
    expect(told.attachments?.[0]?.contentType).toContain('method=CANCEL');
    expect(await myLesson(made.id)).toMatchObject({ status: 'cancelled', cancelledBy: 'teacher', cancelReason: 'My child is ill' });
  });

  it("the console sets the cut-off (0–168 hours, 400 naming the field), with its activity row; a PUT without it leaves it", async () => {
    const admin = await signUp(a);
    await db.orm.update(userTable).set({ role: 'admin' }).where(eq(userTable.id, admin.id));
    const base = { timeZone: 'UTC', weeklyHours: 'Mon-Fri 09:00-18:00', contactEmail: null };
    const bad = await call(a, 'PUT', '/api/staff/school', admin, { ...base, cancelCutoffHours: 169 });
    expect(bad.json()).toMatchObject({ error: { fields: { cancelCutoffHours: 'At most 168 hours' } } });
    expect((await call(a, 'PUT', '/api/staff/school', admin, { ...base, cancelCutoffHours: 24 })).json()).toMatchObject({ cancelCutoffHours: 24 });
    expect((await call(b, 'PUT', '/api/staff/school', admin, base)).json()).toMatchObject({ cancelCutoffHours: 24 });
    const [row] = await db.orm.select().from(staffActivity).where(eq(staffActivity.action, 'school.update')).orderBy(staffActivity.id).limit(1);
    expect(row?.after).toMatchObject({ cancelCutoffHours: 24 });
    const made = await request('2026-10-25T09:00:00Z', INSTANT);
    expect(made.lesson).toMatchObject({ cancelCutoffHours: 24, cancellable: true });
  });

  it("the learner's cancel follows the same cut-off (409 naming it, cancellable false); a request is withdrawn at any time", async () => {
    await db.orm.insert(schoolSettings).values({ id: 1, cancelCutoffHours: 24 });
    const lesson = await book('2026-10-25T08:00:00Z', { teacherId: INSTANT });
    const id = lesson.json<BookingCreated>().id;
    expect(lesson.json<BookingCreated>().lesson).toMatchObject({ status: 'upcoming', cancellable: false, cancelCutoffHours: 24 });
    const refused = await call(a, 'POST', `/api/bookings/${id}/cancel`, learner);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'CANCEL_TOO_LATE', message: 'A lesson can be cancelled only up to 24 hours before it starts.' } });
    // the teacher is held to it too
    expect((await answer('cancel', id, { who: otherTeacher, body: { reason: 'Sorry' } })).statusCode).toBe(409);

    const made = await request('2026-10-24T11:00:00Z');
    const withdrawn = await call(b, 'POST', `/api/bookings/${made.id}/cancel`, learner);
    expect(withdrawn.json<Lesson>()).toMatchObject({ status: 'cancelled', cancelledBy: 'learner' });
    // the teacher (their account's address) and the school's copy (decision 118)
    expect((await mails()).filter((m) => m.subject.startsWith('Withdrawn:')).map((m) => m.to).sort()).toEqual([teacher.email, SCHOOL_EMAIL].sort());
    expect((await answer('accept', made.id)).json()).toMatchObject({ error: { message: 'This lesson was cancelled.' } });
  });
});

describe(`a visitor's request waits for its e-mail link first (decision 102), then for the teacher (${testEngine})`, () => {
  it('pending until the link is used, then requested with answer_by from then on; the teacher cannot see it before', async () => {
    const res = await book('2026-10-26T09:00:00Z', { who: null, email: 'visitor@example.com' });
    expect(res.statusCode).toBe(201);
    const created = res.json<BookingCreated>();
    expect(created.lesson.status).toBe('pending');
    expect((await answer('accept', created.id)).statusCode).toBe(404);
    const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec((await mails()).find((m) => m.to === 'visitor@example.com')!.text)![1]!;
    clock += 10 * 60_000;
    const confirmed = await call(b, 'POST', `/api/bookings/token/${token}/confirm`);
    expect(confirmed.json<Lesson>()).toMatchObject({ status: 'requested', answerBy: new Date(clock + 24 * HOUR).toISOString() });
    expect((await mails()).filter((m) => m.to === 'visitor@example.com' && m.subject.includes('is sent'))).toHaveLength(1);
    expect((await answer('accept', created.id)).statusCode).toBe(200);
    expect((await call(a, 'GET', `/api/bookings/token/${token}`)).json<Lesson>().status).toBe('upcoming');
  });

  it('a visitor\'s request whose link was not used in time is an expired hold (410), not an unanswered request', async () => {
    await book('2026-10-26T09:00:00Z', { who: null, email: 'late@example.com' });
    const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec((await mails()).find((m) => m.to === 'late@example.com')!.text)![1]!;
    clock += 31 * 60_000;
    expect((await call(a, 'GET', `/api/bookings/token/${token}`)).json<Lesson>()).toMatchObject({ status: 'expired', cancelledBy: null });
    expect((await call(b, 'POST', `/api/bookings/token/${token}/confirm`)).json()).toMatchObject({ error: { code: 'BOOKING_EXPIRED' } });
    expect(await sweepRequests(db, events, clock)).toBe(0);
  });
});
