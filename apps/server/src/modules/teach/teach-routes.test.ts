import type { SlotsResponse, TeachAvailability, TeachPreview, TimeOff } from '@learnlingo/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, schoolClosure, staffActivity, teacherAccount, teacherAvailability, user } from '../../db/schema.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';
import { testEngine } from '../../test/db.js';
import { lockTeacherLessons } from './teach-repository.js';

/*
 * The teacher's own hours through the API (issue 25, decision 116) with the app's clock
 * (buildApp({ now })): only their own profile, field-named 400s, an activity row per write,
 * and what learners then get — the slots, the booking check and the preview — across the
 * New York spring change, with time off, extra hours, notice, horizon, closures and a change
 * of zone. One app and database for the file.
 */

/** Thursday 5 March 2026, 12:00 UTC: New York moves its clocks forward on Sunday 8 March. */
const START_CLOCK = Date.parse('2026-03-05T12:00:00Z');
let clock = START_CLOCK;

const MINE = generatedTeacherId(1);
const THEIRS = generatedTeacherId(2);
const NO_LIMITS = { BOOKINGS_PER_ADDRESS_PER_HOUR: '10000', BOOKINGS_PER_EMAIL_PER_HOUR: '10000' };
const everyDay = (from: string, to: string) => Array.from({ length: 7 }, () => [{ from, to }]);
const NEW_YORK = { timeZone: 'America/New_York', weeklyHours: everyDay('13:00', '18:00'), noticeHours: 12, horizonDays: 14 };

let t: TestApp;
let teacherUser: TestUser;
let otherTeacher: TestUser;
let learner: TestUser;

async function bindTeacher(u: TestUser, teacherId: string) {
  await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, u.id));
  await t.db.orm.insert(teacherAccount).values({ teacherId, userId: u.id });
}

beforeAll(async () => {
  t = await createTestApp({ seed: 3, now: () => clock, env: { SCHOOL_TIME_ZONE: 'Europe/Kyiv', SCHOOL_HOURS: 'Mon-Fri 10:00-12:00', ...NO_LIMITS } });
  // the first teacher starts on the school's hours (no row of their own)
  await t.db.orm.delete(teacherAvailability).where(eq(teacherAvailability.teacherId, MINE));
  teacherUser = await signUp(t.app, { name: 'Tea Cher' });
  otherTeacher = await signUp(t.app);
  learner = await signUp(t.app);
  await bindTeacher(teacherUser, MINE);
  await bindTeacher(otherTeacher, THEIRS);
});
afterAll(() => t.close());
beforeEach(() => {
  clock = START_CLOCK;
});

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, who?: TestUser, payload?: unknown) =>
  t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(who ? { cookie: who.cookie } : {}) }, ...(payload === undefined ? {} : { payload: payload as object }) });
const fieldsOf = (res: { json: () => unknown }) => (res.json() as { error: { fields?: Record<string, string> } }).error.fields;
const slots = async () => (await call('GET', `/api/teachers/${MINE}/slots`)).json<SlotsResponse>().slots;
const setHours = async (body: object = NEW_YORK) => {
  const res = await call('PUT', '/api/teach/availability', teacherUser, body);
  expect(res.statusCode).toBe(200);
  return res.json<TeachAvailability>();
};
const book = (start: string) =>
  call('POST', '/api/bookings', learner, { teacherId: MINE, start, reason: 'Career and business', fullName: 'Ada Lovelace', email: learner.email, phone: '+44 20 7946 0958' });
const lastActivity = async () => (await t.db.orm.select().from(staffActivity).orderBy(staffActivity.id)).at(-1);

describe('who may', () => {
  it('answers 401 without a session and 403 to a learner, on every route', async () => {
    const routes: [Parameters<typeof call>[0], string, object?][] = [
      ['GET', '/api/teach/availability'],
      ['PUT', '/api/teach/availability', NEW_YORK],
      ['POST', '/api/teach/time-off', { startsOn: '2026-03-20', endsOn: '2026-03-20' }],
      ['DELETE', '/api/teach/time-off/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/teach/extra-hours', { on: '2026-03-20', from: '09:00', to: '10:00' }],
      ['DELETE', '/api/teach/extra-hours/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/teach/preview?zone=UTC'],
    ];
    for (const [method, url, body] of routes) {
      expect((await call(method, url, undefined, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, learner, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call('GET', '/api/teach/availability', teacherUser)).json()).toMatchObject({ ownHours: false, timeOff: [], extraHours: [] });
  });

  it('are described in the OpenAPI document', async () => {
    const spec = (await call('GET', '/api/docs/json')).json<{ paths: Record<string, unknown> }>();
    for (const p of ['/api/teach/availability', '/api/teach/time-off', '/api/teach/time-off/{id}', '/api/teach/extra-hours', '/api/teach/extra-hours/{id}', '/api/teach/preview']) {
      expect(Object.keys(spec.paths)).toContain(p);
    }
  });
});

describe('weekly hours, zone, notice and horizon', () => {
  it("shows the school's hours and the default rules until the teacher sets their own", async () => {
    const res = await call('GET', '/api/teach/availability', teacherUser);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ teacherId: MINE, ownHours: false, timeZone: 'Europe/Kyiv', noticeHours: 12, horizonDays: 14, timeOff: [], extraHours: [] });
    expect(res.json<TeachAvailability>().weeklyHours[0]).toEqual([{ from: '10:00', to: '12:00' }]);
  });

  it('refuses bad input with 400 naming each field, and writes nothing', async () => {
    const bad = await call('PUT', '/api/teach/availability', teacherUser, {
      timeZone: 'Mars/Olympus_Mons',
      weeklyHours: [[{ from: '09:00', to: '12:00' }, { from: '11:00', to: '13:00' }], [{ from: '9:30', to: '10:00' }], [{ from: '15:00', to: '14:00' }], [], [], [], []],
      noticeHours: -1,
      horizonDays: 1000,
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toMatchObject({
      timeZone: expect.stringContaining('Unknown time zone'),
      'weeklyHours.0.1.from': 'Overlaps another range that day',
      'weeklyHours.1.0.from': 'A whole hour such as 09:00',
      'weeklyHours.2.0.to': 'Ends after it starts',
      noticeHours: 'At least 0',
      horizonDays: 'At most 365 days',
    });
    const long = await call('PUT', '/api/teach/availability', teacherUser, { ...NEW_YORK, timeZone: 'A'.repeat(10_000), weeklyHours: [[{ from: '0'.repeat(10_000), to: '10:00' }], [], [], [], [], [], []] });
    expect(long.statusCode).toBe(400);
    expect(Object.keys(fieldsOf(long) ?? {})).toEqual(expect.arrayContaining(['timeZone', 'weeklyHours.0.0.from']));
    expect((await call('PUT', '/api/teach/availability', teacherUser, { ...NEW_YORK, teacherId: THEIRS })).statusCode).toBe(400);
    expect((await call('GET', '/api/teach/availability', teacherUser)).json()).toMatchObject({ ownHours: false });
  });

  it('saves the hours in the teacher’s zone, with an activity row, and the slots follow across the spring change (13:00 New York, cal.com #30021)', async () => {
    const saved = await setHours();
    expect(saved).toMatchObject({ ownHours: true, timeZone: 'America/New_York', weeklyHours: everyDay('13:00', '18:00'), noticeHours: 12, horizonDays: 14 });
    expect(await lastActivity()).toMatchObject({ actorUserId: teacherUser.id, actorName: 'Tea Cher', action: 'hours.update', subjectType: 'teacher', subjectId: MINE, before: null, after: { timeZone: 'America/New_York', weeklyHours: 'Mon-Sun 13:00-18:00', noticeHours: 12, horizonDays: 14 } });
    const got = await slots();
    // 12 hours' notice from Thursday 12:00Z: Friday 13:00 EST (18:00Z) is the first
    expect(got[0]).toBe('2026-03-06T18:00:00.000Z');
    expect(got.filter((s) => s.startsWith('2026-03-07'))).toEqual(['18', '19', '20', '21', '22'].map((h) => `2026-03-07T${h}:00:00.000Z`));
    expect(got.filter((s) => s.startsWith('2026-03-08'))).toEqual(['17', '18', '19', '20', '21'].map((h) => `2026-03-08T${h}:00:00.000Z`));
    // 14 days ahead: Thursday 19 March 12:00Z; that day's 13:00 EDT (17:00Z) is after it
    expect(got.at(-1)).toBe('2026-03-18T21:00:00.000Z');
    // the booking check agrees: 18:00 EDT on the 8th (22:00Z) is outside the hours
    expect((await book('2026-03-08T22:00:00.000Z')).statusCode).toBe(400);
  });

  it('applies the notice and the horizon at their exact edges, in the slots and the booking check', async () => {
    await setHours({ ...NEW_YORK, noticeHours: 6, horizonDays: 1 });
    // exactly 6 hours before Friday 13:00 EST (18:00Z): bookable; a millisecond later: not
    clock = Date.parse('2026-03-06T12:00:00Z');
    expect((await slots())[0]).toBe('2026-03-06T18:00:00.000Z');
    clock += 1;
    expect((await slots())[0]).toBe('2026-03-06T19:00:00.000Z');
    expect((await book('2026-03-06T18:00:00.000Z')).statusCode).toBe(400);
    // one day ahead, inclusive: Saturday 13:00 EST (18:00Z) at Friday 18:00Z exactly; not a millisecond earlier
    await setHours({ ...NEW_YORK, noticeHours: 0, horizonDays: 1 });
    clock = Date.parse('2026-03-06T18:00:00Z');
    expect((await slots()).at(-1)).toBe('2026-03-07T18:00:00.000Z');
    clock -= 1;
    expect((await slots()).at(-1)).toBe('2026-03-06T22:00:00.000Z');
    expect((await book('2026-03-07T18:00:00.000Z')).statusCode).toBe(400);
    await setHours();
  });
});

describe('time off and extra hours', () => {
  let off: TimeOff;

  it('refuses bad time off with 400 naming the field', async () => {
    const order = await call('POST', '/api/teach/time-off', teacherUser, { startsOn: '2026-03-10', endsOn: '2026-03-09' });
    expect(fieldsOf(order)).toEqual({ endsOn: 'Ends before it starts' });
    const past = await call('POST', '/api/teach/time-off', teacherUser, { startsOn: '2026-03-01', endsOn: '2026-03-04' });
    expect(past.statusCode).toBe(400);
    expect(fieldsOf(past)).toEqual({ endsOn: 'Already over' });
    const bad = await call('POST', '/api/teach/time-off', teacherUser, { startsOn: '2026-02-30', endsOn: 'x'.repeat(5000), reason: 'r'.repeat(201) });
    expect(Object.keys(fieldsOf(bad) ?? {}).sort()).toEqual(['endsOn', 'reason', 'startsOn']);
    const long = await call('POST', '/api/teach/time-off', teacherUser, { startsOn: '2026-03-10', endsOn: '2027-03-11' });
    expect(fieldsOf(long)).toEqual({ endsOn: 'At most 366 days at once' });
  });

  it('takes days off in the teacher’s zone: Monday–Tuesday in New York, whatever day that is elsewhere', async () => {
    const res = await call('POST', '/api/teach/time-off', teacherUser, { startsOn: '2026-03-09', endsOn: '2026-03-10', reason: 'Conference' });
    expect(res.statusCode).toBe(201);
    off = res.json<TimeOff>();
    expect(off).toMatchObject({ startsOn: '2026-03-09', endsOn: '2026-03-10', reason: 'Conference' });
    expect(await lastActivity()).toMatchObject({ action: 'timeOff.create', subjectId: MINE, after: { startsOn: '2026-03-09', endsOn: '2026-03-10' } });
    const got = await slots();
    // Sunday 17:00 EDT (21:00Z) stays; nothing from Monday 00:00 to Wednesday 00:00 New York time (04:00Z)
    expect(got).toContain('2026-03-08T21:00:00.000Z');
    expect(got.filter((s) => s >= '2026-03-09T04:00' && s < '2026-03-11T04:00')).toEqual([]);
    expect(got).toContain('2026-03-11T17:00:00.000Z');
    const refused = await book('2026-03-09T17:00:00.000Z');
    expect(refused.statusCode).toBe(400);
    expect(fieldsOf(refused)).toHaveProperty('start');
    expect((await call('GET', '/api/teach/availability', teacherUser)).json<TeachAvailability>().timeOff).toEqual([off]);
  });

  it('adds extra hours on a date (even inside time off), refuses bad ones, and a learner can book them', async () => {
    const bad = await call('POST', '/api/teach/extra-hours', teacherUser, { on: '2026-03-10', from: '9:00', to: '09:00' });
    expect(fieldsOf(bad)).toMatchObject({ from: 'A whole hour such as 09:00' });
    expect(fieldsOf(await call('POST', '/api/teach/extra-hours', teacherUser, { on: '2026-03-10', from: '10:00', to: '09:00' }))).toEqual({ to: 'Ends after it starts' });
    expect(fieldsOf(await call('POST', '/api/teach/extra-hours', teacherUser, { on: '2026-03-01', from: '09:00', to: '10:00' }))).toEqual({ on: 'Already over' });
    const res = await call('POST', '/api/teach/extra-hours', teacherUser, { on: '2026-03-10', from: '09:00', to: '11:00' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ on: '2026-03-10', from: '09:00', to: '11:00' });
    expect(await lastActivity()).toMatchObject({ action: 'extraHours.create', subjectId: MINE });
    // 09:00 and 10:00 EDT on Tuesday the 10th
    expect((await slots()).filter((s) => s.startsWith('2026-03-10'))).toEqual(['2026-03-10T13:00:00.000Z', '2026-03-10T14:00:00.000Z']);
    expect((await book('2026-03-10T13:00:00.000Z')).statusCode).toBe(201);
    expect((await slots()).filter((s) => s.startsWith('2026-03-10'))).toEqual(['2026-03-10T14:00:00.000Z']);
  });

  it("lets a teacher remove only their own entries (another teacher's: 404, a bad id: 400)", async () => {
    expect((await call('DELETE', `/api/teach/time-off/${off.id}`, otherTeacher)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/teach/time-off/not-a-uuid', teacherUser)).statusCode).toBe(400);
    const removed = await call('DELETE', `/api/teach/time-off/${off.id}`, teacherUser);
    expect(removed.statusCode).toBe(200);
    expect(await lastActivity()).toMatchObject({ action: 'timeOff.delete', before: { id: off.id }, after: null });
    expect((await call('DELETE', `/api/teach/time-off/${off.id}`, teacherUser)).statusCode).toBe(404);
    expect(await slots()).toContain('2026-03-09T17:00:00.000Z');
    const extra = (await call('GET', '/api/teach/availability', teacherUser)).json<TeachAvailability>().extraHours[0]!;
    expect((await call('DELETE', `/api/teach/extra-hours/${extra.id}`, otherTeacher)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/teach/extra-hours/${extra.id}`, teacherUser)).statusCode).toBe(200);
    expect(await lastActivity()).toMatchObject({ action: 'extraHours.delete' });
  });
});

describe('the preview, closures and a change of zone', () => {
  it('shows the coming week as a learner in Kolkata sees it (+05:30), with the teacher’s own time beside it', async () => {
    const res = await call('GET', '/api/teach/preview?zone=Asia/Kolkata', teacherUser);
    expect(res.statusCode).toBe(200);
    const preview = res.json<TeachPreview>();
    expect(preview).toMatchObject({ zone: 'Asia/Kolkata', teacherTimeZone: 'America/New_York', from: '2026-03-06T00:00:00.000Z', to: '2026-03-12T12:00:00.000Z' });
    // the same starts as the slots, within the week
    expect(preview.slots.map((s) => s.start)).toEqual((await slots()).filter((s) => s < '2026-03-12T12:00'));
    // Sunday 13:00 EDT is Sunday 22:30 in Kolkata; Saturday 17:00 EST is Sunday 03:30
    expect(preview.slots).toContainEqual({ start: '2026-03-08T17:00:00.000Z', date: '2026-03-08', weekday: 'Sun', time: '22:30', teacherTime: 'Sun 13:00' });
    expect(preview.slots).toContainEqual({ start: '2026-03-07T22:00:00.000Z', date: '2026-03-08', weekday: 'Sun', time: '03:30', teacherTime: 'Sat 17:00' });
    // the booked extra hour is not free
    expect(preview.slots.map((s) => s.start)).not.toContain('2026-03-10T13:00:00.000Z');
    const missing = await call('GET', '/api/teach/preview', teacherUser);
    expect(fieldsOf(missing)).toHaveProperty('zone');
    expect(fieldsOf(await call('GET', `/api/teach/preview?zone=${'x'.repeat(500)}`, teacherUser))).toHaveProperty('zone');
  });

  it("applies the school's closures on top (in the school's zone): slots, preview and booking", async () => {
    // Kyiv's 12 March: 11 March 22:00Z to 12 March 22:00Z
    await t.db.orm.insert(schoolClosure).values({ id: '11111111-1111-4111-8111-111111111111', startsOn: '2026-03-12', endsOn: '2026-03-12', reason: 'Inspection' });
    const got = await slots();
    expect(got.filter((s) => s >= '2026-03-11T22:00' && s < '2026-03-12T22:00')).toEqual([]);
    expect(got).toContain('2026-03-11T21:00:00.000Z');
    expect((await book('2026-03-12T17:00:00.000Z')).statusCode).toBe(400);
    await t.db.orm.delete(schoolClosure).where(eq(schoolClosure.id, '11111111-1111-4111-8111-111111111111'));
    expect(await slots()).toContain('2026-03-12T17:00:00.000Z');
  });

  it('keeps booked lessons at their instants when the teacher moves to Kolkata, and offers no start that overlaps one', async () => {
    // a lesson at 13:00 EDT on Wednesday the 11th (17:00Z)
    expect((await book('2026-03-11T17:00:00.000Z')).statusCode).toBe(201);
    await setHours({ ...NEW_YORK, timeZone: 'Asia/Kolkata', weeklyHours: everyDay('21:00', '24:00') });
    const [lesson] = await t.db.orm.select({ start: booking.start }).from(booking).where(and(eq(booking.teacherId, MINE), eq(booking.start, new Date('2026-03-11T17:00:00Z'))));
    expect(lesson?.start?.toISOString()).toBe('2026-03-11T17:00:00.000Z');
    // Kolkata 21:00, 22:00, 23:00 are 15:30Z, 16:30Z, 17:30Z: the last two overlap the lesson
    const got = await slots();
    expect(got.filter((s) => s.startsWith('2026-03-11'))).toEqual(['2026-03-11T15:30:00.000Z']);
    expect(got.filter((s) => s.startsWith('2026-03-12'))).toEqual(['2026-03-12T15:30:00.000Z', '2026-03-12T16:30:00.000Z', '2026-03-12T17:30:00.000Z']);
    const overlapping = await book('2026-03-11T16:30:00.000Z');
    expect(overlapping.statusCode).toBe(400);
    expect(fieldsOf(overlapping)).toHaveProperty('start');
    // the same start as the lesson: the database's one-per-slot answer
    expect((await book('2026-03-11T17:00:00.000Z')).statusCode).toBe(400);
    expect((await call('GET', '/api/bookings', learner)).json<{ items: { start: string | null }[] }>().items.map((l) => l.start)).toContain('2026-03-11T17:00:00.000Z');
  });

  it('finds, inside the booking transaction, an overlapping lesson that appeared after the check: 409 SLOT_TAKEN, nothing kept', async () => {
    const start = '2026-03-13T15:30:00.000Z'; // Kolkata 21:00
    expect(await slots()).toContain(start);
    // a lesson at 16:00Z (on the old New York grid) written between the check and the insert:
    // by a trigger on the booking's own first write (its limit count), on either engine
    await t.db.orm.execute(
      sql.raw(`create function ll_test_overlap() returns trigger language plpgsql as $f$ begin
        insert into booking (id, teacher_id, reason, full_name, email, phone, start)
        values ('22222222-2222-4222-8222-222222222222', '${MINE}', 'Living abroad', 'Other Learner', 'other@example.com', '+44 20 7946 0000', '2026-03-13T16:00:00Z')
        on conflict (id) do nothing;
        return null; end $f$`),
    );
    await t.db.orm.execute(sql.raw('create trigger ll_test_overlap after insert or update on booking_limit for each statement execute function ll_test_overlap()'));
    try {
      const res = await book(start);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: { code: 'SLOT_TAKEN' } });
    } finally {
      await t.db.orm.execute(sql.raw('drop trigger ll_test_overlap on booking_limit'));
      await t.db.orm.execute(sql.raw('drop function ll_test_overlap()'));
    }
    const rows = await t.db.orm.select({ start: booking.start }).from(booking).where(eq(booking.teacherId, MINE));
    expect(rows.map((r) => r.start?.toISOString())).not.toContain(start);
    expect(rows.map((r) => r.start?.toISOString())).not.toContain('2026-03-13T16:00:00.000Z');
  });

  it(`makes a booking wait for another booking of the teacher in flight, then sees its lesson (${testEngine})`, async () => {
    const start = '2026-03-13T16:30:00.000Z'; // Kolkata 22:00
    expect(await slots()).toContain(start);
    let answer: Promise<{ statusCode: number }> | undefined;
    let answered = false;
    let answeredBeforeCommit = true;
    await t.db.orm.transaction(async (tx) => {
      // another booking's transaction: it holds the teacher's lock and has written a lesson at 17:00Z, not committed yet
      await lockTeacherLessons(tx, MINE);
      await tx.insert(booking).values({ id: crypto.randomUUID(), teacherId: MINE, reason: 'Living abroad', fullName: 'Other Learner', email: 'other@example.com', phone: '+44 20 7946 0000', start: new Date('2026-03-13T17:00:00Z') });
      answer = book(start);
      void answer.then(() => {
        answered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, testEngine === 'postgres' ? 500 : 50));
      answeredBeforeCommit = answered;
    });
    expect(answeredBeforeCommit).toBe(false);
    const res = await answer!;
    // PostgreSQL: its check ran beside the uncommitted lesson and passed; it then waited on the lock
    // in its transaction and found the lesson there (without the lock: 201 and two overlapping
    // lessons). PGlite runs one transaction at a time: its check already sees the lesson (400).
    expect(res.statusCode).toBe(testEngine === 'postgres' ? 409 : 400);
    const rows = await t.db.orm.select({ start: booking.start }).from(booking).where(eq(booking.teacherId, MINE));
    expect(rows.map((r) => r.start?.toISOString())).not.toContain(start);
  });
});
