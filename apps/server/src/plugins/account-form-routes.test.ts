import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { accountMessages, validationMessages } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema.js';
import { cookieHeader, createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp } from '../test/app.js';

/*
 * Issue 28: the account's forms without JavaScript — Logout, a new password from the e-mailed
 * link, /account's name and password (account-form-routes.ts).
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../web/dist-ssr/entry-server.js', import.meta.url));

let t: TestApp;
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  t = await createTestApp({ seed: 2, env: { WEB_DIST } });
});
afterAll(() => t.close());

function post(url: string, fields: Record<string, string>, cookie?: string, origin = TEST_ORIGIN, referer?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded', ...(cookie && { cookie }), ...(referer && { referer }) },
    payload: new URLSearchParams(fields).toString(),
  });
}

const sessionOf = async (cookie: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json<{ user: { name: string } } | null>();

async function signIn(email: string, password: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress: nextIp(),
    headers: { origin: TEST_ORIGIN },
    payload: { email, password },
  });
  return { status: res.statusCode, cookie: cookieHeader(res) };
}

/** The token of the newest reset link mailed to `email` (the tests run no mail worker: the outbox is the mailbox). */
async function resetToken(email: string): Promise<string> {
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    remoteAddress: nextIp(),
    headers: { origin: TEST_ORIGIN },
    payload: { email, redirectTo: '/reset-password' },
  });
  expect(asked.statusCode).toBe(200);
  const rows = await t.db.orm
    .select({ message: mailOutbox.message })
    .from(mailOutbox)
    .where(sql`${mailOutbox.message}->>'to' = ${email}`)
    .orderBy(mailOutbox.createdAt);
  const text = (rows.at(-1)?.message as { text: string } | undefined)?.text ?? '';
  const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error('no reset link in the mail');
  return token;
}

describe('POST /logout', () => {
  it('ends the session and goes back where the person was (303)', async () => {
    const user = await signUp(t.app);
    const res = await post('/logout', { next: '/teachers?language=French' }, user.cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/teachers?language=French');
    expect(await sessionOf(user.cookie)).toBeNull();
    // the browser's cookie is cleared too
    expect(String(res.headers['set-cookie'])).toMatch(/Max-Age=0/);
  });

  it('from another site: 403, the session stays', async () => {
    const user = await signUp(t.app);
    const res = await post('/logout', {}, user.cookie, 'https://evil.example');
    expect(res.statusCode).toBe(403);
    expect((await sessionOf(user.cookie))?.user.name).toBe(user.name);
  });

  it('the header’s form names no page: back to the page it was posted from (its Referer), when it is this site’s', async () => {
    const user = await signUp(t.app);
    const res = await post('/logout', {}, user.cookie, TEST_ORIGIN, `${TEST_ORIGIN}/teachers/abc?x=1`);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/teachers/abc?x=1');
    const other = await signUp(t.app);
    const foreign = await post('/logout', {}, other.cookie, TEST_ORIGIN, 'https://evil.example/teachers');
    expect(foreign.headers.location).toBe('/');
  });

  it('a next off this site goes home', async () => {
    const user = await signUp(t.app);
    const res = await post('/logout', { next: 'https://evil.example/' }, user.cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });
});

describe('POST /reset-password', () => {
  it('a too short password: 400, the form again with the rule’s message, the link still good', async () => {
    const user = await signUp(t.app);
    const token = await resetToken(user.email);
    const res = await post(`/reset-password?token=${token}`, { newPassword: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(validationMessages.passwordTooShort);
    expect(res.body).toContain(`action="/reset-password?token=${token}"`);
    expect(res.body).not.toContain('value="abc"');
  });

  it('sets the new password: the Log in page says so, the link is spent, the new password signs in', async () => {
    const user = await signUp(t.app);
    const token = await resetToken(user.email);
    const res = await post(`/reset-password?token=${token}`, { newPassword: 'brand-new-pass-2' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?reset=done');
    const login = await t.app.inject({ method: 'GET', url: '/login?reset=done' });
    expect(login.body).toContain(accountMessages.passwordReset);
    expect(login.body).toContain('action="/login"');
    expect((await t.app.inject({ method: 'GET', url: '/login' })).body).not.toContain(accountMessages.passwordReset);
    expect((await signIn(user.email, 'brand-new-pass-2')).status).toBe(200);
    expect((await signIn(user.email, user.password)).status).toBe(401);
    // the same link again: it is spent, and the page says so at once
    const again = await post(`/reset-password?token=${token}`, { newPassword: 'another-pass-3' });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain(accountMessages.resetLinkInvalid);
  });

  it('without a token, or one that is not a token: 404', async () => {
    expect((await post('/reset-password', { newPassword: 'brand-new-pass-2' })).statusCode).toBe(404);
    expect((await post(`/reset-password?token=${'a'.repeat(300)}`, { newPassword: 'brand-new-pass-2' })).statusCode).toBe(404);
    expect((await post('/reset-password?token=a%20b', { newPassword: 'brand-new-pass-2' })).statusCode).toBe(404);
  });
});

describe('POST /account/name and /account/password', () => {
  it('a visitor is sent to log in and come back to /account', async () => {
    const res = await post('/account/name', { name: 'Olena' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?next=%2Faccount');
  });

  it('changes the name: 303 to /account with its toast, the session says the new name', async () => {
    const user = await signUp(t.app);
    const res = await post('/account/name', { name: 'Olena Petrenko' }, user.cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account');
    expect(String(res.headers['set-cookie'])).toContain('ll_flash=nameChanged');
    expect((await sessionOf(user.cookie))?.user.name).toBe('Olena Petrenko');
    const page = await t.app.inject({ method: 'GET', url: '/account', headers: { cookie: `${user.cookie}; ll_flash=nameChanged` } });
    expect(page.body).toContain(accountMessages.nameChanged);
  });

  it('an empty name: 400, /account again with the message and what was typed, nothing changed', async () => {
    const user = await signUp(t.app);
    const res = await post('/account/name', { name: '   ' }, user.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('<h1');
    expect(res.body).toMatch(/aria-invalid="true"/);
    expect((await sessionOf(user.cookie))?.user.name).toBe(user.name);
    const long = await post('/account/name', { name: 'x'.repeat(5000) }, user.cookie);
    expect(long.statusCode).toBe(400);
  });

  it('a wrong current password: 400 naming the field; nothing changed', async () => {
    const user = await signUp(t.app);
    const res = await post('/account/password', { currentPassword: 'not-the-one-1', newPassword: 'brand-new-pass-2' }, user.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(accountMessages.wrongPassword);
    expect(res.body).not.toContain('not-the-one-1');
    expect(res.body).not.toContain('brand-new-pass-2');
    expect((await signIn(user.email, user.password)).status).toBe(200);
  });

  it('changes the password: a fresh cookie for this browser, the other sessions end', async () => {
    const user = await signUp(t.app);
    const other = await signIn(user.email, user.password);
    const res = await post('/account/password', { currentPassword: user.password, newPassword: 'brand-new-pass-2' }, user.cookie);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account');
    expect(String(res.headers['set-cookie'])).toContain('ll_flash=passwordChanged');
    expect(await sessionOf(other.cookie)).toBeNull();
    expect((await sessionOf(cookieHeader(res)))?.user.name).toBe(user.name);
    expect((await signIn(user.email, 'brand-new-pass-2')).status).toBe(200);
  });
});
