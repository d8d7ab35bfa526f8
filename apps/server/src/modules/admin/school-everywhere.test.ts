import { fileURLToPath } from 'node:url';
import type { Lesson, SlotsResponse } from '@learnlingo/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { mailOutbox, teacherAvailability, user } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';
import { createSchoolSource, writeSchoolSettings } from './school-settings.js';

/*
 * The console's School settings are what the product uses (issue 24, decision 119): once an
 * admin sets the contact e-mail and the time zone, the booking and cancellation e-mails, the
 * lessons' zone, an account deletion's school copy and every page's footer follow — the
 * environment's SCHOOL_* only start a fresh database. Both engines; needs the built web app
 * (`npm run build`, as ssr.test.ts) for the pages.
 */

const WEB_DIST = fileURLToPath(new URL('../../../../web/dist', import.meta.url));
/** Tuesday 20 October 2026, 12:00 UTC */
const clock = Date.parse('2026-10-20T12:00:00Z');
const ENV_MAIL = 'env-school@example.com';
const OFFICE = 'office@example.com';
const TEACHER = generatedTeacherId(1);
const defaults = { schedule: { timeZone: 'Europe/Kyiv', hours: Array.from({ length: 7 }, () => [[8, 20]]) }, email: ENV_MAIL };

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    seed: 2,
    now: () => clock,
    env: {
      WEB_DIST,
      SCHOOL_EMAIL: ENV_MAIL,
      SCHOOL_TIME_ZONE: 'Europe/Kyiv',
      SCHOOL_HOURS: 'Mon-Sun 08:00-20:00',
      BOOKINGS_PER_ADDRESS_PER_HOUR: '1000',
      BOOKINGS_PER_EMAIL_PER_HOUR: '1000',
    },
  });
  admin = await signUp(t.app, { name: 'Ada Admin' });
  await t.db.orm.update(user).set({ role: 'admin' }).where(eq(user.id, admin.id));
  // this teacher teaches the school's hours, in the school's zone
  await t.db.orm.delete(teacherAvailability).where(eq(teacherAvailability.teacherId, TEACHER));
});
afterAll(() => t?.close());

const call = (who: TestUser | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, remoteAddress: nextIp(), ...(payload ? { payload } : {}), headers: { origin: TEST_ORIGIN, ...(who ? { cookie: who.cookie } : {}) } });
const ok = async <T>(who: TestUser | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<T> => {
  const res = await call(who, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json<T>();
};
const setSchool = (timeZone: string, contactEmail: string | null) => ok(admin, 'PUT', '/api/staff/school', { timeZone, weeklyHours: 'Mon-Sun 08:00-20:00', contactEmail });
const footerMail = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
  expect(res.statusCode).toBe(200);
  return /href="mailto:([^"]+)"/.exec(res.body)?.[1] ?? null;
};
/** The lesson e-mails queued (not sign-up's confirmation, nor the review ask due after the lesson, nor the reminders due the day before). */
const outbox = async () =>
  (await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).orderBy(mailOutbox.createdAt))
    .map((r) => r.message as MailMessage)
    .filter((m) => !/^(Confirm your e-mail|How was|Tomorrow:)/.test(m.subject));

/** A verified learner books the teacher's last free start (days ahead: cancellable): a lesson at once, its e-mails queued. */
async function bookLesson() {
  const learner = await signUp(t.app, { name: 'Lee Learner' });
  await t.db.orm.update(user).set({ emailVerified: true }).where(eq(user.id, learner.id));
  const { slots } = await ok<SlotsResponse>(undefined, 'GET', `/api/teachers/${TEACHER}/slots`);
  const body = { reason: 'Career and business', fullName: 'Lee Learner', phone: '+44 20 7946 0958', email: learner.email, teacherId: TEACHER, start: slots.at(-1)! };
  const created = await ok<{ id: string }>(learner, 'POST', '/api/bookings', body);
  return { learner, id: created.id };
}

describe("the console's school settings reach", () => {
  it('the footer of every page (the HTML cache too) and the booking e-mails: the environment first, then the console', async () => {
    expect(await footerMail()).toBe(ENV_MAIL);
    // (kept in the HTML cache now)
    expect(await footerMail()).toBe(ENV_MAIL);
    await t.db.orm.delete(mailOutbox);
    await bookLesson();
    expect((await outbox()).map((m) => m.to)).toContain(ENV_MAIL);

    await setSchool('Asia/Tokyo', OFFICE);
    expect(await footerMail()).toBe(OFFICE);
    // the console's page, rendered by the server with its own styles (its modules are the staff chunk's)
    const settings = await t.app.inject({ method: 'GET', url: '/admin/settings', headers: { accept: 'text/html', cookie: admin.cookie } });
    expect(settings.body).toContain(`value="${OFFICE}"`);
    expect(settings.body).toMatch(/<link rel="stylesheet" href="\/assets\/staff-[\w-]+\.css" disabled \/>/);
    await t.db.orm.delete(mailOutbox);
    const { learner, id } = await bookLesson();
    const booked = await outbox();
    expect(booked.map((m) => m.to).sort()).toEqual([learner.email, OFFICE].sort());
    // the school's copy is in the zone of the teacher, who teaches the school's hours
    expect(booked.find((m) => m.to === OFFICE)!.text).toContain('(Asia/Tokyo)');
    expect((await ok<Lesson>(learner, 'GET', `/api/bookings/${id}`)).teacher.timeZone).toBe('Asia/Tokyo');
    expect((await ok<{ items: Lesson[] }>(learner, 'GET', '/api/bookings')).items[0]!.teacher.timeZone).toBe('Asia/Tokyo');

    // the learner's cancellation tells the console's address
    await t.db.orm.delete(mailOutbox);
    await ok(learner, 'POST', `/api/bookings/${id}/cancel`);
    expect((await outbox()).map((m) => m.to).sort()).toEqual([learner.email, OFFICE].sort());

    // cleared in the console: no address on the pages, no school copy (the environment's is not back)
    await setSchool('Asia/Tokyo', null);
    expect(await footerMail()).toBeNull();
    await t.db.orm.delete(mailOutbox);
    const again = await bookLesson();
    expect((await outbox()).map((m) => m.to)).toEqual([again.learner.email]);
  });

  it("an account deletion's copy of its cancelled lessons goes to the console's address", async () => {
    await setSchool('UTC', OFFICE);
    const { learner } = await bookLesson();
    await t.db.orm.delete(mailOutbox);
    const res = await call(learner, 'POST', '/api/auth/delete-user', { password: 'secret-pass-1' });
    expect(res.statusCode, res.body).toBe(200);
    const sent = await outbox();
    expect(sent.map((m) => m.to)).toEqual([OFFICE]);
    expect(sent[0]!.text).toContain('(UTC)');
  });
});

describe("a server's memo of the pages' contact e-mail", () => {
  it('is kept for pageMaxAgeMs (another server\'s change shows after it), and dropped by a change made here', async () => {
    await writeSchoolSettings(t.db.orm, { timeZone: 'UTC', weeklyHours: defaults.schedule.hours, contactEmail: 'before@example.com' });
    const kept = createSchoolSource(t.db.orm, defaults, () => clock, { pageMaxAgeMs: 60_000 });
    const fresh = createSchoolSource(t.db.orm, defaults, () => clock, { pageMaxAgeMs: 0 });
    expect(await kept.contactEmail()).toBe('before@example.com');
    await writeSchoolSettings(t.db.orm, { timeZone: 'UTC', weeklyHours: defaults.schedule.hours, contactEmail: 'after@example.com' });
    expect(await kept.contactEmail()).toBe('before@example.com');
    expect(await fresh.contactEmail()).toBe('after@example.com');
    // requests and e-mails never read the memo
    expect((await kept.settings()).email).toBe('after@example.com');
    kept.changed();
    expect(await kept.contactEmail()).toBe('after@example.com');
  });
});
