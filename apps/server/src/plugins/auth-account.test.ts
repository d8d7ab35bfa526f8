import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NAME_MAX, validationMessages } from '@learnlingo/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../mail/index.js';
import { createMailTransport } from '../mail/transport.js';
import { createMailWorker } from '../mail/worker.js';
import { account, booking, favorite, mailOutbox, session, user, verification } from '../db/schema.js';
import { cookieHeader, createTestApp, nextIp, signUp, TEST_ORIGIN, testEnv, type TestApp, type TestUser } from '../test/app.js';
import { deleteAccountData } from './auth-account.js';

const SCHOOL = 'school@learnlingo.test';
let t: TestApp;
let teacherIds: string[];
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-account-'));
  t = await createTestApp({ seed: 3, env: { DATA_DIR: dataDir, SCHOOL_EMAIL: SCHOOL } });
  teacherIds = (await t.db.rows<{ id: string }>(sql`select id from teacher order by id`)).map((r) => r.id);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = (url: string, payload: unknown, extra: { cookie?: string; ip?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: TEST_ORIGIN, ...(extra.cookie ? { cookie: extra.cookie } : {}) },
    remoteAddress: extra.ip ?? nextIp(),
    payload: payload as Record<string, unknown>,
  });

const sessionOf = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json<{
    user: { id: string; name: string; email: string; emailVerified: boolean };
  } | null>();

const signIn = async (email: string, password: string) => {
  const res = await post('/api/auth/sign-in/email', { email, password });
  return { status: res.statusCode, cookie: cookieHeader(res) };
};

/** The messages queued for `to`, oldest first (the tests run no mail worker: the outbox is the mailbox). */
async function mailTo(to: string): Promise<{ subject: string; text: string }[]> {
  const rows = await t.db.orm
    .select({ message: mailOutbox.message })
    .from(mailOutbox)
    .where(sql`${mailOutbox.message}->>'to' = ${to}`)
    .orderBy(mailOutbox.createdAt);
  return rows.map((r) => r.message as { subject: string; text: string });
}

function linkIn(text: string, prefix: string): URL {
  const match = new RegExp(`${prefix.replace(/[.?/]/g, '\\$&')}\\S+`).exec(text);
  if (!match) throw new Error(`no link starting with ${prefix} in the mail`);
  return new URL(match[0]);
}

async function requestReset(email: string) {
  const res = await post('/api/auth/request-password-reset', { email });
  return { status: res.statusCode, body: res.body };
}

async function resetToken(email: string): Promise<string> {
  const mails = await mailTo(email);
  const reset = mails.filter((m) => m.subject === 'Reset your LearnLingo password').at(-1);
  if (!reset) throw new Error('no reset mail');
  const link = linkIn(reset.text, `${TEST_ORIGIN}/reset-password?token=`);
  return link.searchParams.get('token') as string;
}

// ---------------------------------------------------------------- finding 4: the form rules

/** POST over a real socket with the path exactly as given (curl --path-as-is). */
async function rawPost(path: string, body: unknown): Promise<{ status: number; body: string }> {
  await t.app.listen({ port: 0, host: '127.0.0.1' }).catch((error: unknown) => {
    if ((error as { code?: string }).code !== 'FST_ERR_REOPENED_SERVER') throw error;
  });
  const { port } = t.app.server.address() as AddressInfo;
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the forms\' rules hold on every endpoint that takes a name, an e-mail or a password (finding 4)', () => {
  it.each(['/api/auth/./sign-up/email', '/api/auth/sign-up/./email', '/api/auth/x/../sign-up/email'])(
    'POST %s (path as is) with a password of 8 spaces and a 500-character name is 400 naming both, and creates nobody',
    async (path) => {
      const email = `bypass-${randomUUID()}@example.com`;
      const res = await rawPost(path, { name: 'n'.repeat(500), email, password: ' '.repeat(8) });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: { name: `Name must be at most ${NAME_MAX} characters`, password: validationMessages.passwordNeedsLetter },
      });
      expect(await t.db.orm.select().from(user).where(eq(user.email, email))).toHaveLength(0);
    },
  );

  it('change-password refuses 12345678 as the new password (400 naming newPassword) and keeps the old one', async () => {
    const u = await signUp(t.app);
    const res = await post('/api/auth/change-password', { currentPassword: u.password, newPassword: '12345678' }, { cookie: u.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { newPassword: validationMessages.passwordNeedsLetter } });
    expect((await signIn(u.email, u.password)).status).toBe(200);
  });

  it('update-user refuses a 30,000-character name and anything but the name; a good name is stored trimmed', async () => {
    const u = await signUp(t.app);
    const long = await post('/api/auth/update-user', { name: 'x'.repeat(30_000) }, { cookie: u.cookie });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { name: `Name must be at most ${NAME_MAX} characters` } });
    const empty = await post('/api/auth/update-user', { name: '   ' }, { cookie: u.cookie });
    expect(empty.json()).toMatchObject({ fields: { name: validationMessages.nameRequired } });
    const image = await post('/api/auth/update-user', { name: 'Ann', image: 'y'.repeat(20_000) }, { cookie: u.cookie });
    expect(image.statusCode).toBe(400);
    expect((await sessionOf(u.cookie))?.user.name).toBe(u.name);

    const ok = await post('/api/auth/update-user', { name: '  Ann Smith  ' }, { cookie: u.cookie });
    expect(ok.statusCode).toBe(200);
    expect((await sessionOf(u.cookie))?.user.name).toBe('Ann Smith');
  });

  it('each key a form does not take is named on its own (400, nobody created)', async () => {
    const email = `extra-${randomUUID()}@example.com`;
    const res = await post('/api/auth/sign-up/email', { name: 'Ann', email, password: 'secret-pass-1', role: 'admin', emailVerified: true });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ fields: Record<string, string> }>().fields).toEqual({ role: 'Not allowed', emailVerified: 'Not allowed' });
    expect(await t.db.orm.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('a name of 100 characters is taken at sign-up and on update-user alike; 101 is refused by both with the same message', async () => {
    const hundred = 'N'.repeat(100);
    const u = await signUp(t.app, { name: hundred });
    expect((await sessionOf(u.cookie))?.user.name).toBe(hundred);
    const renamed = `${'M'.repeat(99)}x`;
    expect((await post('/api/auth/update-user', { name: renamed }, { cookie: u.cookie })).statusCode).toBe(200);
    expect((await sessionOf(u.cookie))?.user.name).toBe(renamed);

    const tooLong = { name: 'Name must be at most 100 characters' };
    const email = `long-name-${randomUUID()}@example.com`;
    const up = await post('/api/auth/sign-up/email', { name: 'N'.repeat(101), email, password: 'secret-pass-1' });
    expect(up.statusCode).toBe(400);
    expect(up.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: tooLong });
    expect(await t.db.orm.select().from(user).where(eq(user.email, email))).toHaveLength(0);
    const update = await post('/api/auth/update-user', { name: 'M'.repeat(101) }, { cookie: u.cookie });
    expect(update.statusCode).toBe(400);
    expect(update.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: tooLong });
    expect((await sessionOf(u.cookie))?.user.name).toBe(renamed);
  });

  it.each([
    ['/api/auth/request-password-reset', 'email', { email: `${'a.'.repeat(200)}@x.com` }, validationMessages.invalidEmail],
    ['/api/auth/reset-password', 'newPassword', { token: 'whatever', newPassword: 'abc' }, validationMessages.passwordTooShort],
    ['/api/auth/send-verification-email', 'email', { email: 'nope' }, validationMessages.invalidEmail],
    ['/api/auth/delete-user', 'password', {}, validationMessages.passwordRequired],
    ['/api/auth/sign-in/email', 'password', { email: 'a@example.com', password: 'p'.repeat(49) }, validationMessages.passwordTooLong],
    ['/api/auth/sign-up/email', 'image', { name: 'Ann', email: `img-${randomUUID()}@example.com`, password: 'password1', image: 'y'.repeat(20_000) }, 'Not allowed'],
    ['/api/auth/change-password', 'currentPassword', { newPassword: 'password2' }, validationMessages.passwordRequired],
  ])('%s checks its body (400 naming %s)', async (url, field, body, message) => {
    const u = await signUp(t.app);
    const res = await post(url, body, { cookie: u.cookie });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { [field]: message } });
  });
});

// ---------------------------------------------------------------- forgot password

describe('forgot password', () => {
  it('answers the same whether or not the e-mail has an account, and mails a link only to an account', async () => {
    const u = await signUp(t.app);
    const stranger = `nobody-${randomUUID()}@example.com`;
    const known = await requestReset(u.email);
    const unknown = await requestReset(stranger);
    expect(known).toEqual(unknown);
    expect(known.status).toBe(200);
    expect(await mailTo(stranger)).toEqual([]);
    const token = await resetToken(u.email);
    expect(token.length).toBeGreaterThanOrEqual(24);

    // the link reads as it is in a raw .eml file (a developer without a mail server clicks it there)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-reset-eml-'));
    try {
      const [queued] = (await mailTo(u.email)).filter((m) => m.subject === 'Reset your LearnLingo password');
      const transport = createMailTransport({ from: 'LearnLingo <no-reply@localhost>', outboxDir: dir, outboxDisplay: dir });
      const { where } = await transport.send(randomUUID(), queued as MailMessage);
      expect(fs.readFileSync(where, 'utf8')).toContain(`\n${TEST_ORIGIN}/reset-password?token=${token}\n`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }

    // valid for one hour
    const [row] = await t.db.orm.select().from(verification).where(eq(verification.value, u.id));
    expect((row?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((row?.expiresAt.getTime() ?? 0) - Date.now()).toBeLessThanOrEqual(60 * 60_000);
  });

  it('a name stored before today\'s rules (a control character in it) still gets its mail, on one line', async () => {
    const u = await signUp(t.app);
    await t.db.orm.update(user).set({ name: 'Old\u0007\nName' }).where(eq(user.id, u.id));
    expect((await requestReset(u.email)).status).toBe(200);
    const [mail] = (await mailTo(u.email)).filter((m) => m.subject === 'Reset your LearnLingo password');
    expect(mail?.text).toMatch(/^Hello Old Name,\n/);
  });

  it('the link sets a new password under the registration rules, works once, and ends every session', async () => {
    const u = await signUp(t.app);
    const other = await signIn(u.email, u.password);
    await requestReset(u.email);
    const token = await resetToken(u.email);

    const weak = await post('/api/auth/reset-password', { token, newPassword: 'abcdefg' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ fields: { newPassword: validationMessages.passwordTooShort } });

    const reset = await post('/api/auth/reset-password', { token, newPassword: 'brand-new-pass-2' });
    expect(reset.statusCode).toBe(200);
    expect(await sessionOf(u.cookie)).toBeNull();
    expect(await sessionOf(other.cookie)).toBeNull();
    expect((await signIn(u.email, u.password)).status).toBe(401);
    expect((await signIn(u.email, 'brand-new-pass-2')).status).toBe(200);

    const again = await post('/api/auth/reset-password', { token, newPassword: 'another-pass-3' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await signIn(u.email, 'brand-new-pass-2')).status).toBe(200);
  });

  it('the database keeps only a hash of the token: no stored value holds it, and the mailed link still works, once', async () => {
    const u = await signUp(t.app);
    await requestReset(u.email);
    const token = await resetToken(u.email);
    const rows = await t.db.orm.select().from(verification).where(eq(verification.value, u.id));
    expect(rows).toHaveLength(1);
    const stored = rows.flatMap((r) => [r.id, r.identifier, r.value]);
    expect(stored.filter((value) => value.includes(token))).toEqual([]);

    expect((await post('/api/auth/reset-password', { token, newPassword: 'brand-new-pass-2' })).statusCode).toBe(200);
    const again = await post('/api/auth/reset-password', { token, newPassword: 'another-pass-3' });
    expect(again.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await signIn(u.email, 'brand-new-pass-2')).status).toBe(200);
  });

  it('a link stored in clear before hashing (decision 104) keeps working until it expires, once', async () => {
    const u = await signUp(t.app);
    const token = 'clearTokenFromBefore0001';
    await t.db.orm.insert(verification).values({
      id: randomUUID(),
      identifier: `reset-password:${token}`,
      value: u.id,
      expiresAt: new Date(Date.now() + 30 * 60_000),
    });
    expect((await post('/api/auth/reset-password', { token, newPassword: 'brand-new-pass-2' })).statusCode).toBe(200);
    expect((await post('/api/auth/reset-password', { token, newPassword: 'another-pass-3' })).statusCode).toBe(400);
    expect((await signIn(u.email, 'brand-new-pass-2')).status).toBe(200);
  });

  it('an expired link is refused and changes nothing', async () => {
    const u = await signUp(t.app);
    await requestReset(u.email);
    const token = await resetToken(u.email);
    // an hour and a second later
    await t.db.orm
      .update(verification)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verification.value, u.id));
    const res = await post('/api/auth/reset-password', { token, newPassword: 'brand-new-pass-2' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await signIn(u.email, u.password)).status).toBe(200);
    expect(await sessionOf(u.cookie)).not.toBeNull();
  });
});

// ---------------------------------------------------------------- e-mail confirmation

describe('e-mail confirmation', () => {
  it('sign-up mails a confirmation link; the unconfirmed user can use everything; the link confirms', async () => {
    const u = await signUp(t.app);
    expect((await sessionOf(u.cookie))?.user.emailVerified).toBe(false);
    const fav = await t.app.inject({
      method: 'PUT',
      url: `/api/favorites/${teacherIds[0]}`,
      headers: { origin: TEST_ORIGIN, cookie: u.cookie },
    });
    expect(fav.statusCode).toBe(200);

    const [mail] = await mailTo(u.email);
    expect(mail?.subject).toBe('Confirm your e-mail for LearnLingo');
    const link = linkIn(mail?.text ?? '', `${TEST_ORIGIN}/api/auth/verify-email?token=`);
    const res = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/account?email=confirmed');
    expect((await sessionOf(u.cookie))?.user.emailVerified).toBe(true);
  });
});

// ---------------------------------------------------------------- /account: password, sessions

describe('change password and other sessions', () => {
  it('needs the current password; a change ends the other sessions and keeps this one', async () => {
    const u = await signUp(t.app);
    const other = await signIn(u.email, u.password);

    const wrong = await post('/api/auth/change-password', { currentPassword: 'not-my-pass-1', newPassword: 'changed-pass-2' }, { cookie: u.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    expect(await sessionOf(other.cookie)).not.toBeNull();

    // even when the client does not ask for it
    const res = await post(
      '/api/auth/change-password',
      { currentPassword: u.password, newPassword: 'changed-pass-2', revokeOtherSessions: false },
      { cookie: u.cookie },
    );
    expect(res.statusCode).toBe(200);
    expect(await sessionOf(other.cookie)).toBeNull();
    const mine = cookieHeader(res) || u.cookie;
    expect((await sessionOf(mine))?.user.id).toBe(u.id);
    expect((await signIn(u.email, 'changed-pass-2')).status).toBe(200);
    expect((await signIn(u.email, u.password)).status).toBe(401);
  });

  it('revoke-other-sessions signs every other device out and keeps this one', async () => {
    const u = await signUp(t.app);
    const phone = await signIn(u.email, u.password);
    const laptop = await signIn(u.email, u.password);
    const res = await post('/api/auth/revoke-other-sessions', {}, { cookie: u.cookie });
    expect(res.statusCode).toBe(200);
    expect(await sessionOf(phone.cookie)).toBeNull();
    expect(await sessionOf(laptop.cookie)).toBeNull();
    expect((await sessionOf(u.cookie))?.user.id).toBe(u.id);
  });
});

// ---------------------------------------------------------------- delete the account

describe('delete the account', () => {
  async function bookFor(owner: TestUser | null, fullName: string, email: string): Promise<string> {
    const id = randomUUID();
    await t.db.orm.insert(booking).values({
      id,
      teacherId: teacherIds[1] as string,
      userId: owner?.id ?? null,
      reason: 'Living abroad',
      fullName,
      email,
      phone: '+380 50 123 4567',
    });
    return id;
  }
  const bookingRow = async (id: string) => (await t.db.orm.select().from(booking).where(eq(booking.id, id)))[0];
  const countFor = async (userId: string) => ({
    user: (await t.db.orm.select().from(user).where(eq(user.id, userId))).length,
    sessions: (await t.db.orm.select().from(session).where(eq(session.userId, userId))).length,
    accounts: (await t.db.orm.select().from(account).where(eq(account.userId, userId))).length,
    favorites: (await t.db.orm.select().from(favorite).where(eq(favorite.userId, userId))).length,
    verifications: (await t.db.orm.select().from(verification).where(eq(verification.value, userId))).length,
  });

  it('needs the password: missing is 400 naming it, wrong is INVALID_PASSWORD, and nothing is removed', async () => {
    const u = await signUp(t.app);
    const missing = await post('/api/auth/delete-user', {}, { cookie: u.cookie });
    expect(missing.statusCode).toBe(400);
    const wrong = await post('/api/auth/delete-user', { password: 'not-my-pass-1' }, { cookie: u.cookie });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'INVALID_PASSWORD' });
    expect((await countFor(u.id)).user).toBe(1);
    expect(await sessionOf(u.cookie)).not.toBeNull();
  });

  it('removes the user, their sessions and favourites; their bookings stay without name, e-mail and phone', async () => {
    const u = await signUp(t.app);
    const other = await signUp(t.app);
    const second = await signIn(u.email, u.password);
    for (const id of teacherIds.slice(0, 2)) {
      await t.app.inject({ method: 'PUT', url: `/api/favorites/${id}`, headers: { origin: TEST_ORIGIN, cookie: u.cookie } });
    }
    await t.app.inject({ method: 'PUT', url: `/api/favorites/${teacherIds[0]}`, headers: { origin: TEST_ORIGIN, cookie: other.cookie } });
    await requestReset(u.email); // leaves a reset token
    const mine = await bookFor(u, 'Ann Learner', u.email);
    const theirs = await bookFor(other, 'Bob Other', other.email);
    const visitors = await bookFor(null, 'Visitor', 'visitor@example.com');
    expect(await countFor(u.id)).toMatchObject({ user: 1, sessions: 2, accounts: 1, favorites: 2, verifications: 1 });

    const res = await post('/api/auth/delete-user', { password: u.password }, { cookie: u.cookie });
    expect(res.statusCode).toBe(200);
    expect(await countFor(u.id)).toEqual({ user: 0, sessions: 0, accounts: 0, favorites: 0, verifications: 0 });
    expect(await sessionOf(u.cookie)).toBeNull();
    expect(await sessionOf(second.cookie)).toBeNull();
    expect((await signIn(u.email, u.password)).status).toBe(401);

    expect(await bookingRow(mine)).toMatchObject({ fullName: '', email: '', phone: '', userId: null, teacherId: teacherIds[1], reason: 'Living abroad' });
    expect(await bookingRow(theirs)).toMatchObject({ fullName: 'Bob Other', email: other.email, userId: other.id });
    expect(await bookingRow(visitors)).toMatchObject({ fullName: 'Visitor', email: 'visitor@example.com' });
    expect(await countFor(other.id)).toMatchObject({ user: 1, favorites: 1 });
  });

  it('is one transaction: when removing the user fails, the bookings keep their details', async () => {
    const u = await signUp(t.app);
    const mine = await bookFor(u, 'Ann Learner', u.email);
    await t.db.rows(sql.raw(`create function refuse_user_delete() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`));
    await t.db.rows(sql.raw('create trigger refuse_user_delete before delete on "user" for each row execute function refuse_user_delete()'));
    try {
      const res = await post('/api/auth/delete-user', { password: u.password }, { cookie: u.cookie });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.rows(sql.raw('drop trigger refuse_user_delete on "user"'));
      await t.db.rows(sql.raw('drop function refuse_user_delete()'));
    }
    expect(await bookingRow(mine)).toMatchObject({ fullName: 'Ann Learner', email: u.email, userId: u.id });
    expect(await countFor(u.id)).toMatchObject({ user: 1, sessions: 1, accounts: 1 });
  });

  it('cancels their lessons still to come (the time is free again, the school is told) and removes their mail, queued and written', async () => {
    const u = await signUp(t.app);
    const other = await signUp(t.app);
    await t.db.orm.update(user).set({ emailVerified: true }).where(eq(user.id, u.id));
    const teacherId = teacherIds[2] as string;
    const slotsOf = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots` })).json<{ slots: string[] }>().slots;
    const start = (await slotsOf())[0] as string;
    const lesson = { teacherId, start, reason: 'Living abroad', phone: '+380 50 123 4567' };
    const booked = await post('/api/bookings', { ...lesson, fullName: 'Ann Learner', email: u.email }, { cookie: u.cookie });
    expect(booked.statusCode).toBe(201);
    const upcoming = booked.json<{ id: string }>().id;
    const past = randomUUID();
    await t.db.orm.insert(booking).values({
      id: past,
      teacherId,
      userId: u.id,
      reason: 'Living abroad',
      fullName: 'Ann Learner',
      email: u.email,
      phone: '+380 50 123 4567',
      start: new Date(Date.now() - 2 * 24 * 3_600_000),
    });

    // without SMTP_URL the .eml files are the delivery: write what is queued, then queue one more
    const outboxDir = path.join(dataDir, 'outbox');
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const transport = createMailTransport({ from: 'LearnLingo <no-reply@localhost>', outboxDir, outboxDisplay: outboxDir });
    await createMailWorker({ db: t.db, transport, log: quiet, batch: 1000 }).runOnce();
    await requestReset(u.email);
    const filesTo = (address: string) =>
      fs.readdirSync(outboxDir).filter((f) => new RegExp(`^To: ${address.replace(/[.+]/g, '\\$&')}$`, 'm').test(fs.readFileSync(path.join(outboxDir, f), 'utf8')));
    expect(filesTo(u.email).length).toBeGreaterThanOrEqual(2); // the confirmation and the lesson's
    expect(filesTo(other.email)).toHaveLength(1);
    // the reset, still queued, and the lesson's review request, due at its end (decision 112); its
    // reminder too when the first free slot is more than 24 h ahead of the real clock (decision 118)
    expect((await mailTo(u.email)).map((m) => m.subject.split(' ')[0]).filter((s) => s !== 'Tomorrow:').sort()).toEqual(['How', 'Reset']);
    expect(await slotsOf()).not.toContain(start);

    const res = await post('/api/auth/delete-user', { password: u.password }, { cookie: u.cookie });
    expect(res.statusCode).toBe(200);

    expect(filesTo(u.email)).toEqual([]);
    expect(filesTo(other.email)).toHaveLength(1);
    expect(await mailTo(u.email)).toEqual([]);
    expect(await t.db.orm.select().from(mailOutbox).where(eq(mailOutbox.recipientUserId, u.id))).toEqual([]);

    expect(await bookingRow(upcoming)).toMatchObject({ cancelledAt: expect.any(Date), userId: null, fullName: '', email: '', tokenHash: null });
    expect(await bookingRow(past)).toMatchObject({ cancelledAt: null, userId: null, fullName: '', email: '', reason: 'Living abroad' });
    const [copy, ...more] = (await mailTo(SCHOOL)).filter((m) => m.subject.startsWith('Cancelled by the learner:'));
    expect(more).toEqual([]);
    expect(copy?.text).toContain(`UTC: ${start}`);
    expect(copy?.text).toContain('Learner: Account deleted');
    expect(copy?.text).not.toContain('Ann Learner');
    expect(copy?.text).not.toContain(u.email);

    expect(await slotsOf()).toContain(start);
    const again = await post('/api/bookings', { ...lesson, fullName: 'Bob Other', email: other.email }, { cookie: other.cookie });
    expect(again.statusCode).toBe(201);

    // a hold (this address is not confirmed: decision 102) goes too, without a copy: the school never heard of it
    const held = again.json<{ id: string }>().id;
    expect(await bookingRow(held)).toMatchObject({ holdExpiresAt: expect.any(Date), cancelledAt: null });
    expect((await post('/api/auth/delete-user', { password: other.password }, { cookie: other.cookie })).statusCode).toBe(200);
    expect(await bookingRow(held)).toMatchObject({ cancelledAt: expect.any(Date), userId: null });
    expect((await mailTo(SCHOOL)).filter((m) => m.subject.startsWith('Cancelled by the learner:'))).toHaveLength(1);
    expect(await slotsOf()).toContain(start);
  });

  /**
   * deleteAccountData on the same database, but with `meanwhile` run once between its read of
   * the user's lessons and its transaction (as another request would commit there); whether it ran.
   */
  async function deleteWithMeanwhile(userId: string, meanwhile: () => Promise<void>): Promise<boolean> {
    let ran = false;
    const orm = Object.assign(Object.create(t.db.orm) as typeof t.db.orm, {
      transaction: (async (...args: Parameters<typeof t.db.orm.transaction>) => {
        if (!ran) {
          ran = true;
          await meanwhile();
        }
        return t.db.orm.transaction(...args);
      }) as typeof t.db.orm.transaction,
    });
    const env = testEnv();
    await deleteAccountData({ ...t.db, orm }, userId, {
      outboxDir: path.join(dataDir, 'outbox'),
      school: async () => ({ schedule: { timeZone: env.schoolTimeZone, hours: env.schoolHours }, email: SCHOOL }),
      now: Date.now,
      log: { warn: () => {} },
    });
    return ran;
  }

  it('a lesson booked after it read their lessons, before its transaction, is cancelled too: it reads again', async () => {
    const u = await signUp(t.app);
    // a time no other test books: 40 days out, on the hour
    const start = new Date(Math.ceil((Date.now() + 40 * 24 * 3_600_000) / 3_600_000) * 3_600_000);
    const late = randomUUID();
    // a booking of theirs commits between the read and the transaction
    const booked = await deleteWithMeanwhile(u.id, async () => {
      await t.db.orm.insert(booking).values({
        id: late,
        teacherId: teacherIds[0] as string,
        userId: u.id,
        reason: 'Living abroad',
        fullName: 'Ann Learner',
        email: u.email,
        phone: '+380 50 123 4567',
        start,
      });
    });

    expect(booked).toBe(true);
    expect(await bookingRow(late)).toMatchObject({ cancelledAt: expect.any(Date), userId: null, fullName: '', email: '', phone: '' });
    const copies = (await mailTo(SCHOOL)).filter((m) => m.text.includes(`UTC: ${start.toISOString()}`));
    expect(copies.map((m) => m.subject.split(':')[0])).toEqual(['Cancelled by the learner']);
    expect(copies[0]?.text).toContain('Learner: Account deleted');
    expect((await t.db.orm.select().from(user).where(eq(user.id, u.id))).length).toBe(0);
  });

  it('a hold confirmed after it read their lessons is a lesson by the cancel: the school, told of it, is told of its cancellation', async () => {
    const u = await signUp(t.app); // e-mail not confirmed: the booking is a hold (decision 102)
    const teacherId = teacherIds[1] as string;
    const start = (await t.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots` })).json<{ slots: string[] }>().slots[0] as string;
    const held = await post('/api/bookings', { teacherId, start, reason: 'Living abroad', phone: '+380 50 123 4567', fullName: 'Ann Learner', email: u.email }, { cookie: u.cookie });
    expect(held.json<{ lesson: { status: string } }>().lesson.status).toBe('pending');
    const holdMail = (await mailTo(u.email)).find((m) => /^Confirm your .*trial lesson/.test(m.subject));
    const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(holdMail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    // the learner confirms the hold by its link between the read and the transaction
    const confirmed = await deleteWithMeanwhile(u.id, async () => {
      const res = await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/confirm` });
      expect(res.json<{ status: string }>(), res.body).toMatchObject({ status: 'upcoming' });
    });

    expect(confirmed).toBe(true);
    // this teacher's copies (another test's teacher may have a lesson at the same hour)
    const { name, surname } = held.json<{ lesson: { teacher: { name: string; surname: string } } }>().lesson.teacher;
    const copies = (await mailTo(SCHOOL)).filter((m) => m.text.includes(`UTC: ${start}`) && m.text.includes(`${name} ${surname}`));
    expect(copies.map((m) => m.subject.split(':')[0])).toEqual(['New lesson', 'Cancelled by the learner']);
    expect(copies[1]?.text).toContain('Learner: Account deleted');
  });
});
