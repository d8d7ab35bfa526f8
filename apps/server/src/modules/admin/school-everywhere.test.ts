import { fileURLToPath } from 'node:url';
import type { Lesson, SchoolSettings, SlotsResponse } from '@learnlingo/contract';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { mailOutbox, staffActivity, teacherAvailability, user } from '../../db/schema.js';
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

describe("the console's forms without JavaScript (POST /admin/settings, /admin/teachers/:id/status)", () => {
  const post = (fields: Record<string, string>, who?: TestUser, origin = TEST_ORIGIN, url = '/admin/settings') =>
    t.app.inject({
      method: 'POST',
      url,
      payload: new URLSearchParams(fields).toString(),
      headers: { origin, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', ...(who ? { cookie: who.cookie } : {}) },
    });
  const good = { timeZone: 'Europe/Lisbon', weeklyHours: 'Mon-Fri 10:00-16:00', contactEmail: 'desk@example.com' };

  it('is for admins, from this site: a visitor is sent to log in, a learner and another site are refused', async () => {
    const visitor = await post(good);
    expect(visitor.statusCode).toBe(303);
    expect(visitor.headers.location).toBe('/login?next=%2Fadmin%2Fsettings');
    const learner = await signUp(t.app);
    expect((await post(good, learner)).statusCode).toBe(403);
    expect((await post(good, admin, 'https://evil.example')).statusCode).toBe(403);
    expect((await ok<SchoolSettings>(admin, 'GET', '/api/staff/school')).timeZone).not.toBe('Europe/Lisbon');
  });

  it('refused: the tab again (400) with each field named and what was typed, nothing written; taken: saved, audited, on the pages', async () => {
    const before = await ok<SchoolSettings>(admin, 'GET', '/api/staff/school');
    const refused = await post({ ...good, timeZone: 'Nowhere/City', weeklyHours: 'daily' }, admin);
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('text/html');
    expect(refused.headers['cache-control']).toContain('private');
    const html = refused.body.replace(/<!-- -->/g, '');
    expect(html).toContain('value="Nowhere/City"');
    expect(html).toContain('value="desk@example.com"');
    expect(html).toContain('Unknown time zone (use an IANA name such as Europe/Kyiv)');
    expect(html).toContain('aria-invalid="true"');
    expect(await ok<SchoolSettings>(admin, 'GET', '/api/staff/school')).toEqual(before);

    const taken = await post(good, admin);
    expect(taken.statusCode).toBe(303);
    expect(taken.headers.location).toBe('/admin/settings?saved');
    expect(await ok<SchoolSettings>(admin, 'GET', '/api/staff/school')).toMatchObject({ timeZone: 'Europe/Lisbon', weeklyHours: 'Mon-Fri 10:00-16:00', contactEmail: 'desk@example.com' });
    const [row] = await t.db.orm.select().from(staffActivity).orderBy(desc(staffActivity.id)).limit(1);
    expect(row).toMatchObject({ action: 'school.update', actorUserId: admin.id, after: { timeZone: 'Europe/Lisbon' } });
    expect(await footerMail()).toBe('desk@example.com');
    const page = await t.app.inject({ method: 'GET', url: '/admin/settings?saved', headers: { accept: 'text/html', cookie: admin.cookie } });
    expect(page.body).toContain('Saved. Lesson times follow at once.');
    // the console's own styles are in the page (its modules are the staff chunk's), not only once the app runs
    expect(page.body).toMatch(/<link rel="stylesheet" href="\/assets\/staff-[\w-]+\.css" disabled \/>/);
  });

  it("a teacher's status: hiding without a reason comes back naming it; with one the teacher is gone (410)", async () => {
    const id = generatedTeacherId(2);
    const url = `/admin/teachers/${id}/status`;
    const refused = await post({ status: 'hidden', reason: '  ' }, admin, TEST_ORIGIN, url);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Say why the teacher is hidden');
    expect((await t.app.inject({ method: 'GET', url: `/api/teachers/${id}` })).statusCode).toBe(200);
    const learner = await signUp(t.app);
    expect((await post({ status: 'hidden', reason: 'On leave' }, learner, TEST_ORIGIN, url)).statusCode).toBe(403);

    const taken = await post({ status: 'hidden', reason: 'On leave' }, admin, TEST_ORIGIN, url);
    expect(taken.statusCode).toBe(303);
    expect(taken.headers.location).toBe(`/admin/teachers/${id}?status=changed`);
    expect((await t.app.inject({ method: 'GET', url: `/api/teachers/${id}` })).statusCode).toBe(410);
    const [row] = await t.db.orm.select().from(staffActivity).orderBy(desc(staffActivity.id)).limit(1);
    expect(row).toMatchObject({ action: 'teacher.hide', subjectId: id, after: { status: 'hidden', statusReason: 'On leave' } });
    const page = await t.app.inject({ method: 'GET', url: `/admin/teachers/${id}?status=changed`, headers: { accept: 'text/html', cookie: admin.cookie } });
    expect(page.body).toContain('Status changed. The catalogue follows within a second or two.');
  });
});
