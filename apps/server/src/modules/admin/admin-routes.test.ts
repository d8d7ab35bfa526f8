import { deflateSync, crc32 } from 'node:zlib';
import type { AdminBookingPage, AdminTeacher, AdminTeacherPage, SchoolSettings, SlotsResponse } from '@learnlingo/contract';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId, importEntries, parseExport } from '../../catalogue/index.js';
import { mailOutbox, staffActivity, teacherAvailability, user } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';

/*
 * The console's Teachers, Bookings and School settings (issue 24; decisions 110, 111), on both
 * engines: every route's 401/403/400/404/200, status and the catalogue, photos and their
 * limits, cancelling with e-mails, closures across a daylight-saving change, the activity
 * rows, and the importer's rule over console edits. One app and database for the file.
 */

/** Tuesday 20 October 2026, 12:00 UTC: Kyiv (the school's zone) moves from EEST to EET on Sunday 25 October. */
const clock = Date.parse('2026-10-20T12:00:00Z');
const SCHOOL_ZONE = 'Europe/Kyiv';
const SCHOOL_MAIL = 'school@example.com';
const OWN_HOURS = generatedTeacherId(1);
const SCHOOL_HOURS = generatedTeacherId(2);

let t: TestApp;
let admin: TestUser;
let learner: TestUser;

beforeAll(async () => {
  t = await createTestApp({
    seed: 3,
    now: () => clock,
    env: { SCHOOL_TIME_ZONE: SCHOOL_ZONE, SCHOOL_HOURS: 'Mon-Sun 08:00-20:00', SCHOOL_EMAIL: SCHOOL_MAIL, BOOKINGS_PER_ADDRESS_PER_HOUR: '1000', BOOKINGS_PER_EMAIL_PER_HOUR: '1000' },
  });
  admin = await signUp(t.app, { name: 'Ada Admin' });
  learner = await signUp(t.app, { name: 'Lee Learner' });
  await t.db.orm.update(user).set({ role: 'admin' }).where(eq(user.id, admin.id));
  await t.db.orm.update(user).set({ emailVerified: true }).where(eq(user.id, learner.id));
  await t.db.orm
    .update(teacherAvailability)
    .set({ timeZone: 'America/New_York', weeklyHours: Array.from({ length: 7 }, () => [[9, 11]]) })
    .where(eq(teacherAvailability.teacherId, OWN_HOURS));
  await t.db.orm.delete(teacherAvailability).where(eq(teacherAvailability.teacherId, SCHOOL_HOURS));
});
afterAll(() => t?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: TestUser | undefined, method: Method, url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : typeof payload === 'object' && !Buffer.isBuffer(payload) ? { payload: payload as object } : { payload: payload as Buffer }),
    headers: { origin: TEST_ORIGIN, ...(who ? { cookie: who.cookie } : {}), ...headers },
  });
const ok = async <T>(who: TestUser | undefined, method: Method, url: string, payload?: unknown, status = 200): Promise<T> => {
  const res = await call(who, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json<T>();
};

const card = {
  name: 'Quilla',
  surname: 'Zephyrine',
  languages: ['Quenya', 'English'],
  levels: ['A1 Beginner'],
  price_per_hour: 31,
  lesson_info: 'Elvish for travellers',
  conditions: ['Bring a map'],
  experience: 'Ten years in Rivendell',
  avatar_url: null,
  country: 'Ireland',
  timeZone: 'Europe/Dublin',
  weeklyHours: 'Mon-Fri 09:00-17:00',
};

const slotsOf = async (id: string) => (await ok<SlotsResponse>(undefined, 'GET', `/api/teachers/${id}/slots`)).slots;
const form = { reason: 'Career and business', fullName: 'Lee Learner', phone: '+44 20 7946 0958' };

const activity = (subjectId: string) =>
  t.db.orm.select().from(staffActivity).where(eq(staffActivity.subjectId, subjectId)).orderBy(staffActivity.id);

describe('who may', () => {
  const ID = generatedTeacherId(1);
  const UUID = '00000000-0000-4000-8000-000000000000';
  it.each<[Method, string, unknown?]>([
    ['GET', '/api/staff/teachers'],
    ['GET', `/api/staff/teachers/${ID}`],
    ['POST', '/api/staff/teachers', card],
    ['PATCH', `/api/staff/teachers/${ID}`, { price_per_hour: 40 }],
    ['POST', `/api/staff/teachers/${ID}/status`, { status: 'hidden', reason: 'x' }],
    ['POST', '/api/staff/photos', Buffer.from('x')],
    ['GET', '/api/staff/bookings'],
    ['POST', `/api/staff/bookings/${UUID}/cancel`, { reason: 'x' }],
    ['GET', '/api/staff/school'],
    ['PUT', '/api/staff/school', { timeZone: 'UTC', weeklyHours: 'Mon 09:00-10:00', contactEmail: null }],
    ['POST', '/api/staff/school/closures', { startsOn: '2026-12-24', endsOn: '2026-12-26' }],
    ['DELETE', `/api/staff/school/closures/${UUID}`],
  ])('%s %s: 401 for a visitor, 403 for a learner, nothing written', async (method, url, payload) => {
    const headers: Record<string, string> = Buffer.isBuffer(payload) ? { 'content-type': 'image/png' } : {};
    expect((await call(undefined, method, url, payload, headers)).statusCode).toBe(401);
    expect((await call(learner, method, url, payload, headers)).statusCode).toBe(403);
    expect(await t.db.orm.select().from(staffActivity)).toEqual([]);
  });
});

describe('teachers', () => {
  let created: AdminTeacher;

  it('lists teachers paged and searched by name', async () => {
    const all = await ok<AdminTeacherPage>(admin, 'GET', '/api/staff/teachers?pageSize=2');
    expect(all.total).toBe(3);
    expect(all.items).toHaveLength(2);
    const second = await ok<AdminTeacherPage>(admin, 'GET', '/api/staff/teachers?pageSize=2&page=2');
    expect(second.items).toHaveLength(1);
    const one = all.items[0]!;
    const found = await ok<AdminTeacherPage>(admin, 'GET', `/api/staff/teachers?q=${encodeURIComponent(one.surname.slice(1, 5))}`);
    expect(found.items.map((i) => i.id)).toContain(one.id);
    expect(one).toMatchObject({ status: 'published', lessonsBooked: 0 });
    expect((await call(admin, 'GET', '/api/staff/teachers?page=0')).statusCode).toBe(400);
    expect((await call(admin, 'GET', `/api/staff/teachers?q=${'x'.repeat(101)}`)).json()).toMatchObject({ error: { fields: { q: expect.any(String) } } });
  });

  it('adds a teacher as a draft: not in the catalogue, its page 404, an activity row', async () => {
    created = await ok<AdminTeacher>(admin, 'POST', '/api/staff/teachers', card, 201);
    expect(created).toMatchObject({ status: 'draft', publishedAt: null, timeZone: 'Europe/Dublin', weeklyHours: 'Mon-Fri 09:00-17:00', price_per_hour: 31 });
    expect((await call(undefined, 'GET', `/api/teachers/${created.id}`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', '/api/teachers?q=Zephyrine')).json<{ items: unknown[] }>().items).toEqual([]);
    expect((await call(undefined, 'GET', `/api/teachers/${created.id}/slots`)).statusCode).toBe(404);
    const [row] = await activity(created.id);
    expect(row).toMatchObject({ action: 'teacher.create', actorUserId: admin.id, before: null, after: { name: 'Quilla', status: 'draft' } });
  });

  it('refuses bad fields with a 400 naming each, writing nothing', async () => {
    for (const [body, field] of [
      [{ ...card, price_per_hour: -5 }, 'price_per_hour'],
      [{ ...card, name: '' }, 'name'],
      [{ ...card, languages: [] }, 'languages'],
      [{ ...card, levels: ['Expert'] }, 'levels.0'],
      [{ ...card, weeklyHours: 'Someday 9-5' }, 'weeklyHours'],
      [{ ...card, timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ ...card, timeZone: null }, 'timeZone'],
      [{ ...card, avatar_url: 'http://evil.example/x.png' }, 'avatar_url'],
      [{ ...card, lesson_info: 'x'.repeat(5001) }, 'lesson_info'],
    ] as const) {
      const res = await call(admin, 'POST', '/api/staff/teachers', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json<{ error: { fields: object } }>().error.fields)).toContain(field);
    }
    expect((await ok<AdminTeacherPage>(admin, 'GET', '/api/staff/teachers')).total).toBe(4);
    expect((await call(admin, 'PATCH', `/api/staff/teachers/${created.id}`, { price_per_hour: 'ten' })).statusCode).toBe(400);
    expect((await call(admin, 'PATCH', '/api/staff/teachers/nobody', { price_per_hour: 10 })).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/api/staff/teachers/nobody')).statusCode).toBe(404);
    expect((await call(admin, 'POST', '/api/staff/teachers/nobody/status', { status: 'published' })).statusCode).toBe(404);
  });

  it('publishes: in list, search, counts and sitemap at once; an edit shows on the card', async () => {
    const facets = async () => (await call(undefined, 'GET', '/api/teachers/facets')).json<{ total: number }>().total;
    const before = await facets();
    const published = await ok<AdminTeacher>(admin, 'POST', `/api/staff/teachers/${created.id}/status`, { status: 'published' });
    expect(published.status).toBe('published');
    expect(published.publishedAt).not.toBeNull();
    expect(await facets()).toBe(before + 1);
    expect((await call(undefined, 'GET', '/api/teachers?q=Zephyrine')).json<{ items: { id: string }[] }>().items.map((i) => i.id)).toEqual([created.id]);
    expect((await call(undefined, 'GET', '/sitemap.xml')).body).toContain(`/teachers/${created.id}<`);

    const edited = await ok<AdminTeacher>(admin, 'PATCH', `/api/staff/teachers/${created.id}`, { price_per_hour: 44, timeZone: null, weeklyHours: null });
    expect(edited).toMatchObject({ price_per_hour: 44, timeZone: null, weeklyHours: null });
    expect((await ok<{ price_per_hour: number }>(undefined, 'GET', `/api/teachers/${created.id}`)).price_per_hour).toBe(44);
    const update = (await activity(created.id)).find((r) => r.action === 'teacher.update');
    expect(update).toMatchObject({ before: { price_per_hour: 31, timeZone: 'Europe/Dublin' }, after: { price_per_hour: 44, timeZone: null } });
  });

  it('hides with a reason that is kept: out of list, search, counts and sitemap; its page 410; never a draft again', async () => {
    const facets = async () => (await call(undefined, 'GET', '/api/teachers/facets')).json<{ total: number }>().total;
    const before = await facets();
    const noReason = await call(admin, 'POST', `/api/staff/teachers/${created.id}/status`, { status: 'hidden' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ error: { fields: { reason: expect.any(String) } } });
    const hidden = await ok<AdminTeacher>(admin, 'POST', `/api/staff/teachers/${created.id}/status`, { status: 'hidden', reason: 'On leave until spring' });
    expect(hidden).toMatchObject({ status: 'hidden', statusReason: 'On leave until spring' });
    expect(await facets()).toBe(before - 1);
    expect((await call(undefined, 'GET', '/api/teachers?q=Zephyrine')).json<{ items: unknown[] }>().items).toEqual([]);
    expect((await call(undefined, 'GET', '/sitemap.xml')).body).not.toContain(`/teachers/${created.id}<`);
    const page = await call(undefined, 'GET', `/api/teachers/${created.id}`);
    expect(page.statusCode).toBe(410);
    expect(page.json()).toMatchObject({ error: { code: 'GONE' } });
    const draft = await call(admin, 'POST', `/api/staff/teachers/${created.id}/status`, { status: 'draft' });
    expect(draft.statusCode).toBe(400);
    expect(draft.json()).toMatchObject({ error: { fields: { status: expect.any(String) } } });
    expect((await activity(created.id)).map((r) => r.action)).toEqual(['teacher.create', 'teacher.publish', 'teacher.update', 'teacher.hide']);
    const hide = (await activity(created.id)).at(-1)!;
    expect(hide).toMatchObject({ before: { status: 'published', statusReason: null }, after: { status: 'hidden', statusReason: 'On leave until spring' } });
  });
});

/** A PNG of `width` × `height` 1-bit grey pixels, all zero: tiny on disk, huge once decoded. */
function pngBomb(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([1, 0, 0, 0, 0], 8);
  const raw = Buffer.alloc((Math.ceil(width / 8) + 1) * height);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

describe('photos', () => {
  const upload = (body: Buffer, type = 'image/png') => call(admin, 'POST', '/api/staff/photos', body, { 'content-type': type });

  it('re-encodes a picture into two WebP sizes served from our origin, immutable', async () => {
    const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#3a7' } }).png().toBuffer();
    // the name and the type said do not matter: the first bytes do
    const res = await upload(png, 'application/octet-stream');
    expect(res.statusCode, res.body).toBe(201);
    const { avatar_url, large_url } = res.json<{ avatar_url: string; large_url: string }>();
    expect(avatar_url).toMatch(/^\/photos\/[0-9a-f]{32}-192\.webp$/);
    expect(large_url).toMatch(/^\/photos\/[0-9a-f]{32}-640\.webp$/);
    const served = await t.app.inject(avatar_url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 192, height: 192 });
    expect((await t.app.inject({ url: avatar_url, headers: { 'if-none-match': served.headers.etag as string } })).statusCode).toBe(304);
    expect((await t.app.inject('/photos/00000000000000000000000000000000-192.webp')).statusCode).toBe(404);
    // a teacher's card names it as it is (decision 110)
    const teacher = await ok<AdminTeacher>(admin, 'PATCH', `/api/staff/teachers/${SCHOOL_HOURS}`, { avatar_url });
    expect(teacher.avatar_url).toBe(avatar_url);
  });

  it('refuses a text file named .jpg, a 20 MB body and a PNG bomb with a clear 400/413', async () => {
    const text = await upload(Buffer.from('just some text, called photo.jpg'), 'image/jpeg');
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ error: { fields: { photo: 'The file is not a JPEG, PNG or WebP picture' } } });
    const big = await upload(Buffer.alloc(20 * 1024 * 1024, 1));
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' } });
    const bomb = pngBomb(8000, 8000);
    expect(bomb.length).toBeLessThan(100_000);
    const refused = await upload(bomb);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(/too large/);
    const photoRows = await t.db.orm.execute(sql`select count(*)::int as n from teacher_photo`);
    expect(JSON.stringify(photoRows)).toContain('"n":2');
  });
});

describe('bookings', () => {
  let lessonId: string;

  it('lists every lesson, filtered by teacher, dates and status, paged', async () => {
    const [first, second] = await slotsOf(OWN_HOURS);
    for (const start of [first, second]) {
      const res = await call(learner, 'POST', '/api/bookings', { ...form, email: learner.email, teacherId: OWN_HOURS, start });
      expect(res.statusCode, res.body).toBe(201);
    }
    const [other] = await slotsOf(SCHOOL_HOURS);
    expect((await call(learner, 'POST', '/api/bookings', { ...form, email: learner.email, teacherId: SCHOOL_HOURS, start: other })).statusCode).toBe(201);

    const all = await ok<AdminBookingPage>(admin, 'GET', '/api/staff/bookings');
    expect(all.total).toBe(3);
    const mine = await ok<AdminBookingPage>(admin, 'GET', `/api/staff/bookings?teacherId=${OWN_HOURS}&status=upcoming&pageSize=1`);
    expect(mine).toMatchObject({ total: 2, pageSize: 1 });
    expect(mine.items[0]).toMatchObject({ teacher: { id: OWN_HOURS }, learner: { email: learner.email }, status: 'upcoming' });
    const day = first!.slice(0, 10);
    const onDay = await ok<AdminBookingPage>(admin, 'GET', `/api/staff/bookings?from=${day}&to=${day}`);
    expect(onDay.items.every((b) => b.start!.startsWith(day))).toBe(true);
    expect((await ok<AdminBookingPage>(admin, 'GET', '/api/staff/bookings?status=cancelled')).total).toBe(0);
    expect((await call(admin, 'GET', '/api/staff/bookings?from=2026-02-30')).statusCode).toBe(400);
    expect((await call(admin, 'GET', '/api/staff/bookings?status=lost')).statusCode).toBe(400);
    lessonId = mine.items[0]!.id;
    expect((await ok<AdminTeacherPage>(admin, 'GET', `/api/staff/teachers?q=${OWN_HOURS}`)).items[0]!.lessonsBooked).toBe(2);
  });

  it('cancels one with a reason: the learner and the teacher are e-mailed, an activity row is kept', async () => {
    expect((await call(admin, 'POST', `/api/staff/bookings/${lessonId}/cancel`, {})).json()).toMatchObject({ error: { fields: { reason: expect.any(String) } } });
    expect((await call(admin, 'POST', '/api/staff/bookings/00000000-0000-4000-8000-000000000000/cancel', { reason: 'x' })).statusCode).toBe(404);
    await t.db.orm.delete(mailOutbox);
    const cancelled = await ok<{ status: string }>(admin, 'POST', `/api/staff/bookings/${lessonId}/cancel`, { reason: 'The teacher is ill' });
    expect(cancelled.status).toBe('cancelled');
    const mails = (await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox)).map((r) => r.message as MailMessage);
    expect(mails.map((m) => m.to).sort()).toEqual([learner.email, SCHOOL_MAIL].sort());
    for (const mail of mails) expect(mail.text).toContain('Reason: The teacher is ill');
    // again: nothing more happens
    await ok(admin, 'POST', `/api/staff/bookings/${lessonId}/cancel`, { reason: 'Again' });
    expect(await t.db.orm.select().from(mailOutbox)).toHaveLength(2);
    expect(await activity(lessonId)).toMatchObject([{ action: 'booking.cancel', before: { status: 'upcoming' }, after: { status: 'cancelled', reason: 'The teacher is ill' } }]);
    // the learner still sees it
    const lessons = await ok<{ items: { id: string; status: string }[] }>(learner, 'GET', '/api/bookings');
    expect(lessons.items.find((l) => l.id === lessonId)?.status).toBe('cancelled');
  });
});

describe('school settings', () => {
  it("start as the environment's; a change moves the slots of teachers without their own hours at once", async () => {
    const school = await ok<SchoolSettings>(admin, 'GET', '/api/staff/school');
    expect(school).toEqual({ timeZone: SCHOOL_ZONE, weeklyHours: 'Mon-Sun 08:00-20:00', contactEmail: SCHOOL_MAIL, cancelCutoffHours: 12, closures: [] });
    const bad = await call(admin, 'PUT', '/api/staff/school', { timeZone: 'Nowhere/City', weeklyHours: 'daily', contactEmail: 'nope' });
    expect(Object.keys(bad.json<{ error: { fields: object } }>().error.fields).sort()).toEqual(['contactEmail', 'timeZone', 'weeklyHours']);
    const set = await ok<SchoolSettings>(admin, 'PUT', '/api/staff/school', { timeZone: 'UTC', weeklyHours: 'Mon-Fri 10:00-11:00', contactEmail: 'office@example.com' });
    expect(set).toMatchObject({ timeZone: 'UTC', weeklyHours: 'Mon-Fri 10:00-11:00', contactEmail: 'office@example.com' });
    const slots = await slotsOf(SCHOOL_HOURS);
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.every((s) => s.endsWith('T10:00:00.000Z'))).toBe(true);
    expect(await activity('settings')).toMatchObject([{ action: 'school.update', before: { timeZone: SCHOOL_ZONE }, after: { timeZone: 'UTC' } }]);
    await ok(admin, 'PUT', '/api/staff/school', { timeZone: SCHOOL_ZONE, weeklyHours: 'Mon-Sun 08:00-20:00', contactEmail: SCHOOL_MAIL });
  });

  it('closures remove slots at once and refuse bookings, by the school zone across its DST change', async () => {
    // Saturday 24 and Sunday 25 October in Kyiv: 23 Oct 21:00 UTC (EEST) to 25 Oct 22:00 UTC (EET)
    const bad = await call(admin, 'POST', '/api/staff/school/closures', { startsOn: '2026-10-25', endsOn: '2026-10-24' });
    expect(bad.json()).toMatchObject({ error: { fields: { endsOn: expect.any(String) } } });
    const closure = await ok<{ id: string }>(admin, 'POST', '/api/staff/school/closures', { startsOn: '2026-10-24', endsOn: '2026-10-25', reason: 'Autumn break' }, 201);
    const from = Date.parse('2026-10-23T21:00:00Z');
    const to = Date.parse('2026-10-25T22:00:00Z');
    for (const id of [SCHOOL_HOURS, OWN_HOURS]) {
      const slots = (await slotsOf(id)).map(Date.parse);
      expect(slots.filter((s) => s + 3_600_000 > from && s < to)).toEqual([]);
    }
    const schoolSlots = await slotsOf(SCHOOL_HOURS);
    // the last lesson before (Kyiv 19:00 EEST on the 23rd) and the first after (Kyiv 08:00 EET on the 26th) stay
    expect(schoolSlots).toContain('2026-10-23T16:00:00.000Z');
    expect(schoolSlots).toContain('2026-10-26T06:00:00.000Z');
    // New York's 09:00 on Saturday 24th (13:00 UTC) is inside the school's closure
    const refused = await call(learner, 'POST', '/api/bookings', { ...form, email: learner.email, teacherId: OWN_HOURS, start: '2026-10-24T13:00:00.000Z' });
    expect(refused.statusCode).toBe(400);
    expect((await ok<SchoolSettings>(admin, 'GET', '/api/staff/school')).closures).toEqual([{ id: closure.id, startsOn: '2026-10-24', endsOn: '2026-10-25', reason: 'Autumn break' }]);

    await call(admin, 'DELETE', `/api/staff/school/closures/${closure.id}`).then((res) => expect(res.statusCode).toBe(204));
    expect((await call(admin, 'DELETE', `/api/staff/school/closures/${closure.id}`)).statusCode).toBe(404);
    expect(await slotsOf(OWN_HOURS)).toContain('2026-10-24T13:00:00.000Z');
    expect((await activity(closure.id)).map((r) => r.action)).toEqual(['closure.create', 'closure.delete']);
  });
});

describe('the importer over console edits', () => {
  it('the export wins; each overwritten teacher gets an activity row and is listed', async () => {
    const edited = generatedTeacherId(3);
    await ok(admin, 'PATCH', `/api/staff/teachers/${edited}`, { price_per_hour: 77 });
    const current = await ok<Record<string, unknown>>(undefined, 'GET', `/api/teachers/${edited}`);
    const untouched = await ok<Record<string, unknown>>(undefined, 'GET', `/api/teachers/${OWN_HOURS}`);
    const { entries } = parseExport([
      { ...current, price_per_hour: 12 },
      { ...untouched, price_per_hour: 13 },
    ]);
    const result = await importEntries(t.db, entries);
    expect(result).toMatchObject({ updated: 2, overwroteEdits: [edited] });
    const row = (await activity(edited)).at(-1);
    expect(row).toMatchObject({ action: 'teacher.import-overwrote-edit', actorUserId: null, before: { price_per_hour: 77 }, after: { price_per_hour: 12 } });
    expect((await activity(OWN_HOURS)).filter((r) => r.action === 'teacher.import-overwrote-edit')).toEqual([]);
    // the mark is spent: the next import over it is an ordinary one
    const again = await importEntries(t.db, parseExport([{ ...current, price_per_hour: 14 }]).entries);
    expect(again.overwroteEdits).toEqual([]);
    const rows = await t.db.orm.select().from(staffActivity).where(and(eq(staffActivity.subjectId, edited), eq(staffActivity.action, 'teacher.import-overwrote-edit')));
    expect(rows).toHaveLength(1);
  });
});

describe('a hidden teacher’s lessons', () => {
  it('stay visible to their learners (My lessons), while the page is gone and no new lesson can be booked', async () => {
    const before = await ok<{ items: { teacher: { id: string }; status: string }[] }>(learner, 'GET', '/api/bookings');
    const upcoming = before.items.filter((l) => l.teacher.id === OWN_HOURS && l.status === 'upcoming');
    expect(upcoming).toHaveLength(1);
    await ok(admin, 'POST', `/api/staff/teachers/${OWN_HOURS}/status`, { status: 'hidden', reason: 'Moved away' });
    const after = await ok<{ items: { teacher: { id: string }; status: string }[] }>(learner, 'GET', '/api/bookings');
    expect(after.items.filter((l) => l.teacher.id === OWN_HOURS && l.status === 'upcoming')).toHaveLength(1);
    expect((await call(undefined, 'GET', `/api/teachers/${OWN_HOURS}`)).statusCode).toBe(410);
    expect((await call(undefined, 'GET', `/api/teachers/${OWN_HOURS}/slots`)).statusCode).toBe(404);
  });
});
