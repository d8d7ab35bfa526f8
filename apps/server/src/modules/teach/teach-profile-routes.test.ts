import type { AdminTeacher } from '@learnlingo/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { staffActivity, teacherAccount, user } from '../../db/schema.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';

/*
 * A teacher's own card (issue 25): GET/PUT /api/teach/profile and the photo upload, on both
 * engines: 401/403, 400 naming the field and nothing written, 200 through the console's edit
 * (the public card, list and search follow), the `profile.update` activity row, and another
 * teacher's card never touched. One app and database for the file.
 */

const MINE = generatedTeacherId(1);
const THEIRS = generatedTeacherId(2);

let t: TestApp;
let teacherUser: TestUser;
let otherTeacher: TestUser;
let learner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ seed: 3 });
  teacherUser = await signUp(t.app, { name: 'Tea Cher' });
  otherTeacher = await signUp(t.app);
  learner = await signUp(t.app);
  for (const [u, teacherId] of [[teacherUser, MINE], [otherTeacher, THEIRS]] as const) {
    await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, u.id));
    await t.db.orm.insert(teacherAccount).values({ teacherId, userId: u.id });
  }
});
afterAll(() => t?.close());

type Method = 'GET' | 'PUT' | 'POST';
const call = (method: Method, url: string, who?: TestUser, payload?: object | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(who ? { cookie: who.cookie } : {}), ...headers }, ...(payload === undefined ? {} : { payload }) });
const fieldsOf = (res: { json: () => unknown }) => (res.json() as { error: { fields?: Record<string, string> } }).error.fields;
const publicCard = async (id: string) => (await call('GET', `/api/teachers/${id}`)).json<{ name: string; price_per_hour: number; avatar_url: string | null; languages: string[] }>();
const activity = () => t.db.orm.select().from(staffActivity).orderBy(staffActivity.id);

/** The form's fields from a profile as GET answers it. */
const formOf = ({ name, surname, languages, levels, price_per_hour, lesson_info, conditions, experience, avatar_url, country }: AdminTeacher) => ({
  name,
  surname,
  languages,
  levels,
  price_per_hour,
  lesson_info,
  conditions,
  experience,
  avatar_url,
  country,
});

describe('who may', () => {
  it('answers 401 without a session and 403 to a learner, on every route, and writes nothing', async () => {
    const card = formOf((await call('GET', '/api/teach/profile', teacherUser)).json<AdminTeacher>());
    for (const [method, url, body, headers] of [
      ['GET', '/api/teach/profile'],
      ['PUT', '/api/teach/profile', card],
      ['POST', '/api/teach/profile/photo', Buffer.from('x'), { 'content-type': 'image/png' }],
    ] as [Method, string, (object | Buffer)?, Record<string, string>?][]) {
      expect((await call(method, url, undefined, body, headers)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, learner, body, headers)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await activity()).toEqual([]);
  });

  it('are described in the OpenAPI document', async () => {
    const spec = (await call('GET', '/api/docs/json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/teach/profile', '/api/teach/profile/photo']));
  });
});

describe('the card', () => {
  it("answers the teacher's own card with its status, never another's", async () => {
    const res = await call('GET', '/api/teach/profile', teacherUser);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.json()).toMatchObject({ id: MINE, status: 'published' });
    expect((await call('GET', '/api/teach/profile', otherTeacher)).json()).toMatchObject({ id: THEIRS });
  });

  it('refuses bad input with 400 naming each field (the status and an id too), and writes nothing', async () => {
    const before = (await call('GET', '/api/teach/profile', teacherUser)).json<AdminTeacher>();
    const bad = await call('PUT', '/api/teach/profile', teacherUser, { ...formOf(before), name: ' ', price_per_hour: 'ten', levels: [], avatar_url: 'http://x.test/a.png' });
    expect(bad.statusCode).toBe(400);
    expect(fieldsOf(bad)).toMatchObject({ name: 'Required', price_per_hour: 'A price in dollars', levels: 'At least one level', avatar_url: 'Upload a photo or give an https address' });
    const status = await call('PUT', '/api/teach/profile', teacherUser, { ...formOf(before), status: 'published', id: THEIRS });
    expect(status.statusCode).toBe(400);
    expect(fieldsOf(status)).toMatchObject({ status: 'Unknown field', id: 'Unknown field' });
    const hours = await call('PUT', '/api/teach/profile', teacherUser, { ...formOf(before), timeZone: 'UTC', weeklyHours: 'Mon 09:00-10:00' });
    expect(Object.keys(fieldsOf(hours) ?? {})).toEqual(expect.arrayContaining(['timeZone', 'weeklyHours']));
    const long = await call('PUT', '/api/teach/profile', teacherUser, { ...formOf(before), surname: 'x'.repeat(5_000) });
    expect(fieldsOf(long)).toHaveProperty('surname');
    const { name, surname, ...partial } = formOf(before);
    expect(fieldsOf(await call('PUT', '/api/teach/profile', teacherUser, partial))).toMatchObject({ name: expect.any(String), surname: expect.any(String) });
    expect((await call('GET', '/api/teach/profile', teacherUser)).json()).toEqual(before);
    expect(await activity()).toEqual([]);
    expect(name && surname).toBeTruthy();
  });

  it('saves through the console’s edit: the public card, list and search follow at once, an activity row says what changed, the other teacher is untouched', async () => {
    const mine = (await call('GET', '/api/teach/profile', teacherUser)).json<AdminTeacher>();
    const theirsBefore = (await call('GET', '/api/teach/profile', otherTeacher)).json<AdminTeacher>();
    const res = await call('PUT', '/api/teach/profile', teacherUser, { ...formOf(mine), name: 'Quirinalia', price_per_hour: 77, languages: ['Latin'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: MINE, name: 'Quirinalia', price_per_hour: 77, languages: ['Latin'], status: 'published' });

    expect(await publicCard(MINE)).toMatchObject({ name: 'Quirinalia', price_per_hour: 77, languages: ['Latin'] });
    const found = (await call('GET', '/api/teachers?q=Quirinalia')).json<{ items: { id: string }[] }>().items.map((i) => i.id);
    expect(found).toEqual([MINE]);
    expect((await call('GET', '/api/teachers?language=Latin')).json<{ items: { id: string }[] }>().items.map((i) => i.id)).toEqual([MINE]);

    const rows = await activity();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorUserId: teacherUser.id,
      actorName: 'Tea Cher',
      action: 'profile.update',
      subjectType: 'teacher',
      subjectId: MINE,
      before: { name: mine.name, price_per_hour: mine.price_per_hour, languages: mine.languages },
      after: { name: 'Quirinalia', price_per_hour: 77, languages: ['Latin'] },
    });
    // only what changed is logged
    expect(Object.keys(rows[0]!.after as object).sort()).toEqual(['languages', 'name', 'price_per_hour']);
    expect((await call('GET', '/api/teach/profile', otherTeacher)).json()).toEqual(theirsBefore);
    // the console sees the edit as it is
    expect((await call('GET', '/api/teach/profile', teacherUser)).json()).toMatchObject({ name: 'Quirinalia', status: 'published' });
  });
});

describe('the photo', () => {
  it('puts an uploaded picture on the teacher’s own card at once, with an activity row; the other card keeps its photo', async () => {
    const theirs = (await publicCard(THEIRS)).avatar_url;
    const count = (await activity()).length;
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#a37' } }).png().toBuffer();
    const res = await call('POST', '/api/teach/profile/photo', teacherUser, png, { 'content-type': 'image/png' });
    expect(res.statusCode, res.body).toBe(201);
    const { avatar_url } = res.json<{ avatar_url: string }>();
    expect(avatar_url).toMatch(/^\/photos\/[0-9a-f]{32}-192\.webp$/);
    expect((await t.app.inject(avatar_url)).statusCode).toBe(200);
    expect((await publicCard(MINE)).avatar_url).toBe(avatar_url);
    expect((await publicCard(THEIRS)).avatar_url).toBe(theirs);
    const rows = await activity();
    expect(rows).toHaveLength(count + 1);
    expect(rows.at(-1)).toMatchObject({ action: 'profile.update', subjectId: MINE, after: { avatar_url } });
  });

  it('refuses a text file named .jpg with 400 naming `photo`, and changes nothing', async () => {
    const before = (await publicCard(MINE)).avatar_url;
    const count = (await activity()).length;
    const res = await call('POST', '/api/teach/profile/photo', teacherUser, Buffer.from('just some text, called photo.jpg'), { 'content-type': 'image/jpeg' });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual({ photo: 'The file is not a JPEG, PNG or WebP picture' });
    expect((await publicCard(MINE)).avatar_url).toBe(before);
    expect(await activity()).toHaveLength(count);
  });
});
