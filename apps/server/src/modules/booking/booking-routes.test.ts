import { validationMessages as m } from '@learnlingo/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/generator.js';
import { booking } from '../../db/schema.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp } from '../../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 3 });
});
afterAll(() => t.close());

const valid = {
  teacherId: generatedTeacherId(1),
  reason: 'Career and business',
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 (20) 7946-0958',
};

const book = (payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/bookings', payload: payload as object, headers });

describe('POST /api/bookings', () => {
  it('201 with id and createdAt; stored without a user when signed out', async () => {
    const res = await book(valid);
    expect(res.statusCode).toBe(201);
    const body = res.json<{ id: string; createdAt: string }>();
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.createdAt).toString()).not.toBe('Invalid Date');
    const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, body.id));
    expect(row).toMatchObject({ teacherId: valid.teacherId, userId: null, fullName: 'Ada Lovelace', reason: valid.reason });
  });

  it('ties the booking to the signed-in user', async () => {
    const user = await signUp(t.app);
    const res = await book(valid, { cookie: user.cookie, origin: TEST_ORIGIN });
    expect(res.statusCode).toBe(201);
    const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, res.json<{ id: string }>().id));
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
    ['extra', { extra: 'field' }, 'Unknown field'],
  ])('400 naming %s for %j', async (field, patch, message) => {
    const res = await book({ ...valid, ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { [field]: message } } });
  });

  it('400 naming every field for an empty object; 400 for no body', async () => {
    const res = await book({});
    expect(res.statusCode).toBe(400);
    const fields = res.json<{ error: { fields: Record<string, string> } }>().error.fields;
    expect(Object.keys(fields).sort()).toEqual(['email', 'fullName', 'phone', 'reason', 'teacherId']);
    const none = await t.app.inject({ method: 'POST', url: '/api/bookings' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  it('404 NOT_FOUND for a teacher that does not exist, and nothing is stored', async () => {
    const before = (await t.db.orm.select().from(booking)).length;
    const res = await book({ ...valid, teacherId: 't999999' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await t.db.orm.select().from(booking)).length).toBe(before);
  });

  it('stores SQL and HTML verbatim and returns them as inert JSON', async () => {
    const fullName = `Robert'); DROP TABLE booking;-- <script>alert(1)</script>`;
    const res = await book({ ...valid, fullName });
    expect(res.statusCode).toBe(201);
    const [row] = await t.db.orm.select().from(booking).where(eq(booking.id, res.json<{ id: string }>().id));
    expect(row?.fullName).toBe(fullName);
  });
});
