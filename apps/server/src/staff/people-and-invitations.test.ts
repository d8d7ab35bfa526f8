import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, session, staffActivity, teacher, teacherAccount, teacherInvitation, user } from '../db/schema.js';
import { cookieHeader, createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../test/app.js';
import { testEngine } from '../test/db.js';
import { INVITATION_MS } from './invitations.js';

/*
 * The console's People and Invitations (issue 24, decision 109): every endpoint's
 * 401/403/400/404/200, deactivation (sessions end, sign-in refused with the message), the
 * invitation link's single use and expiry on a controllable clock, and the audit rows.
 */

// The clock starts the day before Europe's clocks go back (2026-10-25): an invitation's 7 days
// are 7 × 24 hours of instants whatever the zone's wall clock does meanwhile.
let clock = Date.parse('2026-10-24T10:00:00Z');
let t: TestApp;
let admin: TestUser;
let learner: TestUser;
let other: TestUser;
let teacherIds: string[];

beforeAll(async () => {
  t = await createTestApp({ seed: 4, now: () => clock });
  admin = await signUp(t.app, { name: 'Ada Admin' });
  learner = await signUp(t.app, { name: 'Lea Learner' });
  other = await signUp(t.app, { name: 'Oscar Other' });
  await t.db.orm.update(user).set({ role: 'admin' }).where(eq(user.id, admin.id));
  teacherIds = (await t.db.orm.select({ id: teacher.id }).from(teacher).orderBy(teacher.id)).map((row) => row.id);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, cookie?: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { origin: TEST_ORIGIN, ...(cookie && { cookie }) }, remoteAddress: nextIp(), ...(payload && { payload }) });
const activity = (action: string) =>
  t.db.orm.select().from(staffActivity).where(eq(staffActivity.action, action)).orderBy(staffActivity.id);
const signIn = (email: string, password: string) => call('POST', '/api/auth/sign-in/email', undefined, { email, password });

describe(`People (${testEngine})`, () => {
  it('every endpoint: 401 without a session, 403 for a learner', async () => {
    const endpoints: [Method, string, Record<string, unknown>?][] = [
      ['GET', '/api/staff/people'],
      ['PUT', `/api/staff/people/${learner.id}/role`, { role: 'admin' }],
      ['PUT', `/api/staff/people/${learner.id}/active`, { active: false }],
    ];
    for (const [method, url, body] of endpoints) {
      expect((await call(method, url, undefined, body)).statusCode, url).toBe(401);
      expect((await call(method, url, learner.cookie, body)).statusCode, url).toBe(403);
    }
    const [row] = await t.db.orm.select({ role: user.role, banned: user.banned }).from(user).where(eq(user.id, learner.id));
    expect(row).toEqual({ role: 'learner', banned: false });
  });

  it('searches by name or e-mail, any case, paged on the server', async () => {
    const all = await call('GET', '/api/staff/people', admin.cookie);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    const byName = (await call('GET', '/api/staff/people?q=lea%20LEARN', admin.cookie)).json<{ items: { id: string; role: string }[]; total: number }>();
    expect(byName.items.map((p) => p.id)).toEqual([learner.id]);
    expect(byName.items[0]).toMatchObject({ role: 'learner', banned: false, teacherId: null });
    const byEmail = (await call('GET', `/api/staff/people?q=${encodeURIComponent(other.email.toUpperCase())}`, admin.cookie)).json<{ total: number }>();
    expect(byEmail.total).toBe(1);
    // a LIKE wildcard is a character, not a pattern
    expect((await call('GET', '/api/staff/people?q=%25', admin.cookie)).json<{ total: number }>().total).toBe(0);
    expect((await call('GET', '/api/staff/people?page=2', admin.cookie)).json<{ items: unknown[] }>().items).toEqual([]);
  });

  it.each([
    ['a page that is no number', '/api/staff/people?page=x', 'page'],
    ['a 101-character search', `/api/staff/people?q=${'a'.repeat(101)}`, 'q'],
    ['an unknown parameter', '/api/staff/people?role=admin', 'role'],
  ])('refuses %s (400 naming the field)', async (_label, url, field) => {
    const res = await call('GET', url, admin.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { fields: Record<string, string> } }>().error.fields).toHaveProperty(field);
  });

  it('changes a role (200, audit row); refuses a role that is none, an unknown account, and their own', async () => {
    const res = await call('PUT', `/api/staff/people/${other.id}/role`, admin.cookie, { role: 'teacher' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: other.id, role: 'teacher' });
    const [row] = await activity('user.role');
    expect(row).toMatchObject({ actorUserId: admin.id, actorName: 'Ada Admin', subjectId: other.id, before: { role: 'learner' }, after: { role: 'teacher' } });
    // the same role again changes nothing and writes no row
    await call('PUT', `/api/staff/people/${other.id}/role`, admin.cookie, { role: 'teacher' });
    expect(await activity('user.role')).toHaveLength(1);

    const bad = await call('PUT', `/api/staff/people/${other.id}/role`, admin.cookie, { role: 'owner' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { role: expect.any(String) } } });
    expect((await call('PUT', '/api/staff/people/nobody/role', admin.cookie, { role: 'admin' })).statusCode).toBe(404);
    const self = await call('PUT', `/api/staff/people/${admin.id}/role`, admin.cookie, { role: 'learner' });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ error: { fields: { role: 'You cannot change your own role' } } });
    await call('PUT', `/api/staff/people/${other.id}/role`, admin.cookie, { role: 'learner' });
  });

  it('deactivates: every session ends, sign-in is refused with a clear message; reactivating lets them in again', async () => {
    const before = await call('GET', '/api/auth/get-session', learner.cookie);
    expect(before.json()).toMatchObject({ user: { id: learner.id } });
    const res = await call('PUT', `/api/staff/people/${learner.id}/active`, admin.cookie, { active: false });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ banned: true });
    expect(await t.db.orm.select().from(session).where(eq(session.userId, learner.id))).toHaveLength(0);
    expect((await call('GET', '/api/auth/get-session', learner.cookie)).json()).toBeNull();

    const refused = await signIn(learner.email, learner.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'BANNED_USER', message: expect.stringContaining('deactivated') });
    // the sign-in form without JavaScript says the same
    const form = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: nextIp(),
      payload: new URLSearchParams({ email: learner.email, password: learner.password }).toString(),
    });
    expect(form.statusCode).toBe(403);
    expect(form.json<{ error: { message: string } }>().error.message).toContain('deactivated');

    const self = await call('PUT', `/api/staff/people/${admin.id}/active`, admin.cookie, { active: false });
    expect(self.statusCode).toBe(400);

    const back = await call('PUT', `/api/staff/people/${learner.id}/active`, admin.cookie, { active: true });
    expect(back.json()).toMatchObject({ banned: false });
    const again = await signIn(learner.email, learner.password);
    expect(again.statusCode).toBe(200);
    learner.cookie = cookieHeader(again);
    expect((await activity('user.deactivate')).map((row) => [row.subjectId, row.before, row.after])).toEqual([[learner.id, { active: true }, { active: false }]]);
    expect(await activity('user.reactivate')).toHaveLength(1);
    const bad = await call('PUT', `/api/staff/people/${learner.id}/active`, admin.cookie, { active: 'no' });
    expect(bad.statusCode).toBe(400);
  });
});

/** The link of the newest invitation mail to `email`. */
async function invitationToken(email: string): Promise<string> {
  const rows = await t.db.orm
    .select({ message: mailOutbox.message })
    .from(mailOutbox)
    .where(sql`${mailOutbox.message}->>'to' = ${email}`)
    .orderBy(mailOutbox.createdAt);
  const text = (rows.at(-1)?.message as { text: string } | undefined)?.text ?? '';
  const token = /\/invite\?token=([A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/.exec(text)?.[1];
  if (!token) throw new Error(`no invitation mail to ${email}`);
  return token;
}

describe(`Invitations (${testEngine})`, () => {
  const invite = (teacherId: string, email: string, cookie = admin.cookie) =>
    call('POST', `/api/staff/teachers/${teacherId}/invitations`, cookie, { email });

  it('the console endpoints: 401 without a session, 403 for a learner', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, body] of [
      ['GET', `/api/staff/teachers/${teacherIds[0]}/invitations`],
      ['POST', `/api/staff/teachers/${teacherIds[0]}/invitations`, { email: 'x@example.com' }],
      ['POST', `/api/staff/invitations/${id}/resend`],
      ['POST', `/api/staff/invitations/${id}/revoke`],
    ] as [Method, string, Record<string, unknown>?][]) {
      expect((await call(method, url, undefined, body)).statusCode, url).toBe(401);
      expect((await call(method, url, learner.cookie, body)).statusCode, url).toBe(403);
    }
    expect(await t.db.orm.select().from(teacherInvitation)).toHaveLength(0);
  });

  it('refuses a bad e-mail (400), an unknown teacher and invitation (404)', async () => {
    const bad = await invite(teacherIds[0]!, 'not-an-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { email: expect.any(String) } } });
    expect((await invite('no-such-teacher', 'x@example.com')).statusCode).toBe(404);
    expect((await call('POST', '/api/staff/invitations/00000000-0000-4000-8000-000000000000/revoke', admin.cookie)).statusCode).toBe(404);
    expect((await call('POST', '/api/staff/invitations/not-a-uuid/revoke', admin.cookie)).statusCode).toBe(400);
  });

  it('a new person: the link sets a password, makes a teacher account bound to the profile, once', async () => {
    const email = `new-teacher-${Date.now()}@example.com`;
    const created = await invite(teacherIds[0]!, email.toUpperCase());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ teacherId: teacherIds[0], email, status: 'pending', expiresAt: new Date(clock + INVITATION_MS).toISOString() });
    const token = await invitationToken(email);

    const preview = await call('GET', `/api/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ email, accountExists: false, teacherName: expect.any(String) });

    const noName = await call('POST', '/api/invitations/accept', undefined, { token, password: 'teach-pass-1' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ error: { fields: { name: expect.any(String) } } });
    const weak = await call('POST', '/api/invitations/accept', undefined, { token, name: 'Tea Cher', password: 'short' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: { fields: { password: expect.any(String) } } });

    const accepted = await call('POST', '/api/invitations/accept', undefined, { token, name: 'Tea Cher', password: 'teach-pass-1' });
    expect(accepted.statusCode).toBe(200);
    const signedIn = await signIn(email, 'teach-pass-1');
    expect(signedIn.statusCode).toBe(200);
    const me = await call('GET', '/api/auth/get-session', cookieHeader(signedIn));
    expect(me.json()).toMatchObject({ user: { email, name: 'Tea Cher', role: 'teacher', emailVerified: true } });
    const [binding] = await t.db.orm.select().from(teacherAccount).where(eq(teacherAccount.teacherId, teacherIds[0]!));
    expect(binding?.userId).toBe(me.json<{ user: { id: string } }>().user.id);

    // single use
    expect((await call('GET', `/api/invitations/${token}`)).statusCode).toBe(404);
    const twice = await call('POST', '/api/invitations/accept', undefined, { token, name: 'Someone', password: 'other-pass-1' });
    expect(twice.statusCode).toBe(404);
    expect((await signIn(email, 'other-pass-1')).statusCode).toBe(401);

    // one account per profile
    const again = await invite(teacherIds[0]!, 'another@example.com');
    expect(again.statusCode).toBe(409);
    const list = await call('GET', `/api/staff/teachers/${teacherIds[0]}/invitations`, admin.cookie);
    expect(list.json()).toMatchObject({ account: { email, name: 'Tea Cher' }, items: [{ email, status: 'used' }] });
    const [row] = await activity('invitation.accept');
    expect(row).toMatchObject({ actorEmail: email, subjectType: 'teacher', subjectId: teacherIds[0], after: { role: 'teacher' } });
    expect(await activity('invitation.create')).toHaveLength(1);
  });

  it('an existing learner: the link sets a new password, makes them the teacher and ends their other sessions', async () => {
    const res = await invite(teacherIds[1]!, other.email);
    expect(res.statusCode).toBe(201);
    const token = await invitationToken(other.email);
    expect((await call('GET', `/api/invitations/${token}`)).json()).toMatchObject({ accountExists: true });
    const accepted = await call('POST', '/api/invitations/accept', undefined, { token, password: 'new-pass-22' });
    expect(accepted.statusCode).toBe(200);
    expect((await call('GET', '/api/auth/get-session', other.cookie)).json()).toBeNull();
    expect((await signIn(other.email, other.password)).statusCode).toBe(401);
    expect((await signIn(other.email, 'new-pass-22')).statusCode).toBe(200);
    const [row] = await t.db.orm.select({ role: user.role }).from(user).where(eq(user.id, other.id));
    expect(row?.role).toBe('teacher');
    // one profile per account
    expect((await invite(teacherIds[2]!, other.email)).statusCode).toBe(409);
    // an admin's address cannot be invited
    expect((await invite(teacherIds[2]!, admin.email)).statusCode).toBe(409);
  });

  it('expires after 7 days to the millisecond, across a daylight-saving change; re-sending gives a new link, revoking ends it', async () => {
    const email = `late-${Date.now()}@example.com`;
    const created = (await invite(teacherIds[2]!, email)).json<{ id: string }>();
    const first = await invitationToken(email);
    clock += INVITATION_MS - 1;
    expect((await call('GET', `/api/invitations/${first}`)).statusCode).toBe(200);
    clock += 1;
    expect((await call('GET', `/api/invitations/${first}`)).statusCode).toBe(404);
    expect((await call('POST', '/api/invitations/accept', undefined, { token: first, name: 'Late', password: 'late-pass-1' })).statusCode).toBe(404);
    const listed = await call('GET', `/api/staff/teachers/${teacherIds[2]}/invitations`, admin.cookie);
    expect(listed.json()).toMatchObject({ account: null, items: [{ id: created.id, status: 'expired' }] });

    const resent = await call('POST', `/api/staff/invitations/${created.id}/resend`, admin.cookie);
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toMatchObject({ status: 'pending', expiresAt: new Date(clock + INVITATION_MS).toISOString() });
    const second = await invitationToken(email);
    expect(second).not.toBe(first);
    expect((await call('GET', `/api/invitations/${first}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/invitations/${second}`)).statusCode).toBe(200);

    const revoked = await call('POST', `/api/staff/invitations/${created.id}/revoke`, admin.cookie);
    expect(revoked.json()).toMatchObject({ status: 'revoked' });
    expect((await call('GET', `/api/invitations/${second}`)).statusCode).toBe(404);
    expect((await call('POST', `/api/staff/invitations/${created.id}/resend`, admin.cookie)).statusCode).toBe(409);
    expect((await activity('invitation.resend')).map((row) => row.subjectId)).toEqual([teacherIds[2]]);
    expect(await activity('invitation.revoke')).toHaveLength(1);
  });

  it('a new invitation of a profile revokes its pending one', async () => {
    const a = (await invite(teacherIds[3]!, 'first@example.com')).json<{ id: string }>();
    const firstToken = await invitationToken('first@example.com');
    await invite(teacherIds[3]!, 'second@example.com');
    expect((await call('GET', `/api/invitations/${firstToken}`)).statusCode).toBe(404);
    const [row] = await t.db.orm.select().from(teacherInvitation).where(and(eq(teacherInvitation.id, a.id)));
    expect(row?.revokedAt).not.toBeNull();
  });

  it('refuses a token that is no token (400) or nobody’s (404)', async () => {
    expect((await call('GET', '/api/invitations/short')).statusCode).toBe(400);
    expect((await call('GET', `/api/invitations/${'A'.repeat(32)}`)).statusCode).toBe(404);
    const res = await call('POST', '/api/invitations/accept', undefined, { token: 'x'.repeat(500), password: 'whatever-1' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { fields: { token: expect.any(String) } } });
  });
});
