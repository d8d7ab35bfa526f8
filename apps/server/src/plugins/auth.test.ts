import { authErrorCodes, validationMessages } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp } from '../test/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 4 });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, extra: { headers?: Record<string, string>; ip?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { origin: TEST_ORIGIN, ...extra.headers },
    remoteAddress: extra.ip ?? nextIp(),
    payload: payload as Record<string, unknown>,
  });

describe('accounts (better-auth under /api/auth)', () => {
  it('signs up, keeps the session in an HTTP-only SameSite=Lax cookie, reads it back and signs out', async () => {
    const email = `anna-${Date.now()}@example.com`;
    const signUpRes = await post('/api/auth/sign-up/email', { name: 'Anna', email, password: 'password1' });
    expect(signUpRes.statusCode).toBe(200);
    const setCookie = String(signUpRes.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const cookie = cookieHeader(signUpRes);

    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { name: 'Anna', email } });

    const signOut = await post('/api/auth/sign-out', {}, { headers: { cookie } });
    expect(signOut.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
    expect(after.json()).toBeNull();

    const signIn = await post('/api/auth/sign-in/email', { email, password: 'password1' });
    expect(signIn.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: cookieHeader(signIn) },
    });
    expect(again.json()).toMatchObject({ user: { email } });
  });

  it('signs out with an empty body too', async () => {
    const user = await signUp(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { origin: TEST_ORIGIN, cookie: user.cookie, 'content-type': 'application/json' },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(200);
  });

  it('get-session without a cookie is null', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/get-session' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });

  it.each([
    ['a 7-character password', { name: 'A', email: 'a@example.com', password: 'abcdefg' }, 'password', validationMessages.passwordTooShort],
    ['a letter-less password', { name: 'A', email: 'a@example.com', password: '12345678' }, 'password', validationMessages.passwordNeedsLetter],
    ['a 49-character password', { name: 'A', email: 'a@example.com', password: 'a'.repeat(49) }, 'password', validationMessages.passwordTooLong],
    ['a bad email', { name: 'A', email: 'not-an-email', password: 'password1' }, 'email', validationMessages.invalidEmail],
    ['an empty name', { name: '  ', email: 'a@example.com', password: 'password1' }, 'name', validationMessages.nameRequired],
    ['a missing email', { name: 'A', password: 'password1' }, 'email', validationMessages.emailRequired],
  ])('refuses sign-up with %s (400 VALIDATION_ERROR naming the field)', async (_label, body, field, message) => {
    const res = await post('/api/auth/sign-up/email', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: authErrorCodes.validation, fields: { [field]: message } });
  });

  it('refuses sign-in with a password that breaks the rules before checking it', async () => {
    const res = await post('/api/auth/sign-in/email', { email: 'x@example.com', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { password: validationMessages.passwordTooShort } });
  });

  it('answers a wrong password with INVALID_EMAIL_OR_PASSWORD (401) and a taken email with USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL (422)', async () => {
    const user = await signUp(t.app);
    const wrong = await post('/api/auth/sign-in/email', { email: user.email, password: 'wrong-pass-1' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: authErrorCodes.invalidCredentials });

    const unknown = await post('/api/auth/sign-in/email', { email: 'nobody@example.com', password: 'password1' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: authErrorCodes.invalidCredentials });

    const taken = await post('/api/auth/sign-up/email', { name: 'Copy', email: user.email, password: 'password1' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toMatchObject({ code: authErrorCodes.emailInUse });
  });

  it('refuses a cross-site POST (origin check on)', async () => {
    const user = await signUp(t.app);
    const res = await post('/api/auth/sign-out', {}, { headers: { origin: 'https://evil.example', cookie: user.cookie } });
    expect(res.statusCode).toBe(403);
    const signIn = await post(
      '/api/auth/sign-in/email',
      { email: user.email, password: user.password },
      { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' } },
    );
    expect(signIn.statusCode).toBe(403);
    // the session survived
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: user.cookie } });
    expect(session.json()).toMatchObject({ user: { email: user.email } });
  });

  it('rate-limits failed sign-ins per client address; a forged X-Forwarded-For does not escape it', async () => {
    const user = await signUp(t.app);
    const attacker = nextIp();
    const attempt = (ip: string, headers: Record<string, string> = {}) =>
      post('/api/auth/sign-in/email', { email: user.email, password: 'wrong-pass-1' }, { ip, headers });

    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await attempt(attacker)).statusCode);
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual([429, 429]);

    const limited = await attempt(attacker, { 'x-forwarded-for': '203.0.113.9', 'x-learnlingo-client-ip': '203.0.113.10' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: authErrorCodes.rateLimited });
    // the real wait, in seconds, in the standard header (the UI's message states it)
    const wait = Number(limited.headers['retry-after']);
    expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
    expect(limited.headers['x-retry-after']).toBe(String(wait));

    // another address is not limited, and the real user still gets in from it
    const other = await post('/api/auth/sign-in/email', { email: user.email, password: user.password }, { ip: nextIp() });
    expect(other.statusCode).toBe(200);
  });
});
