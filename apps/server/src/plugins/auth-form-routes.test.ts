import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { accountMessages } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../catalogue/index.js';
import { mailOutbox } from '../db/schema.js';
import { cookieHeader, createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../test/app.js';

/*
 * Issue 28: Log in, Registration and the heart without JavaScript (decision 105). The
 * server-rendered /login and /register pages post here; a refusal renders the page again.
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../web/dist-ssr/entry-server.js', import.meta.url));
const teacherId = generatedTeacherId(1);

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  t = await createTestApp({ seed: 2, env: { WEB_DIST, AUTH_ATTEMPTS_PER_10S: '3' } });
  user = await signUp(t.app);
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}, remoteAddress = nextIp()) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form(fields),
  });
}

async function favoritesOf(cookie: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: '/api/favorites', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json<{ items: { id: string }[] }>().items.map((item) => item.id);
}

async function sessionName(cookie: string): Promise<string | undefined> {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
  return res.json<{ user?: { name: string } } | null>()?.user?.name;
}

describe('POST /login', () => {
  it('signs in and goes back where the person was (303), with the session cookie', async () => {
    const res = await post('/login', { email: user.email, password: user.password, next: '/teachers?language=French' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/teachers?language=French');
    expect(await sessionName(cookieHeader(res))).toBe(user.name);
  });

  it('without next goes home', async () => {
    const res = await post('/login', { email: user.email, password: user.password });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  it('a wrong password: 400, the Login page again with the message and the e-mail, never the password', async () => {
    const res = await post('/login', { email: user.email, password: 'wrong-pass-1', next: '/teachers' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('Email or password is incorrect');
    expect(res.body).toContain(`value="${user.email}"`);
    expect(res.body).not.toContain('wrong-pass-1');
    // the return path is kept for the next try
    expect(res.body).toMatch(/<input type="hidden" name="next" value="\/teachers"\/>/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('invalid fields: 400 naming each field with the forms’ messages', async () => {
    const res = await post('/login', { email: 'not-an-email', password: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Invalid email');
    expect(res.body).toContain('Too short password');
    expect(res.body).toContain('aria-invalid="true"');
    const empty = await post('/login', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Email can&#x27;t be is empty');
    expect(empty.body).toContain('Password can&#x27;t be is empty');
  });

  it.each(['//evil.example/', 'https://evil.example/', '/\\evil.example', 'teachers', `/${'a'.repeat(600)}`])(
    'refuses next=%j (400), signs no one in',
    async (next) => {
      const res = await post('/login', { email: user.email, password: user.password, next });
      expect(res.statusCode).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toContain('The page to go back to is not on this site.');
    },
  );

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['no Origin, Sec-Fetch-Site: cross-site', { origin: '', 'sec-fetch-site': 'cross-site' }],
  ])('a cross-site post is refused (403): %s', async (_case, headers) => {
    const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: nextIp(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...sent },
      payload: form({ email: user.email, password: user.password }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('the sign-in rate limit counts form posts too (429 with Retry-After, the page says so)', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await post('/login', { email: user.email, password: 'wrong-pass-1' }, {}, ip);
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    expect(last?.headers['retry-after']).toMatch(/^\d+$/);
    expect(last?.body).toContain('Too many attempts. Please wait a minute and try again.');
  });

  it('with the teacher a heart asked for: signed in, the teacher is in the favourites', async () => {
    const someone = await signUp(t.app);
    const res = await post('/login', { email: someone.email, password: someone.password, next: '/teachers', favorite: teacherId });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/teachers');
    expect(await favoritesOf(cookieHeader(res))).toEqual([teacherId]);
  });
});

describe('over a real connection (the request stream is done once its body is read)', () => {
  it('a refused post is answered with the page, not left hanging', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/login`, {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ email: 'not-an-email', password: 'short' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Invalid email');
  });
});

describe('POST /register', () => {
  it('registers, signs in and goes back (303)', async () => {
    const email = `form-${process.pid}-${Date.now()}@example.com`;
    const res = await post('/register', { name: 'Form Person', email, password: 'secret-pass-1', next: '/teachers', favorite: teacherId });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/teachers');
    expect(await sessionName(cookieHeader(res))).toBe('Form Person');
    expect(await favoritesOf(cookieHeader(res))).toEqual([teacherId]);
  });

  it('a registered e-mail: 400, "Email in use", name and e-mail kept', async () => {
    const res = await post('/register', { name: 'Someone Else', email: user.email, password: 'secret-pass-1' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Email in use');
    expect(res.body).toContain('value="Someone Else"');
    expect(res.body).not.toContain('secret-pass-1');
  });

  it('missing name, a password without a letter: 400 naming the fields', async () => {
    const res = await post('/register', { name: '', email: 'new@example.com', password: '12345678' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Name is required field');
    expect(res.body).toContain('Must contain at least one letter');
    expect(res.body).toContain('<h1');
    expect(res.body).toContain('Registration');
  });

  it('an over-long field is a 400, never a 500', async () => {
    const res = await post('/register', { name: 'x'.repeat(5000), email: 'e'.repeat(5000), password: 'p'.repeat(5000) });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /favorites (the heart as a form)', () => {
  it('a visitor goes to /login with the return path and the teacher', async () => {
    const res = await post('/favorites', { teacherId, favorite: 'true', next: '/teachers?level=A1%20Beginner' });
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string, TEST_ORIGIN);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('next')).toBe('/teachers?level=A1%20Beginner');
    expect(location.searchParams.get('favorite')).toBe(teacherId);
  });

  it('signed in: adds, then removes, and goes back (303)', async () => {
    const someone = await signUp(t.app);
    const added = await post('/favorites', { teacherId, favorite: 'true', next: '/teachers' }, { cookie: someone.cookie });
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe('/teachers');
    expect(await favoritesOf(someone.cookie)).toEqual([teacherId]);
    const removed = await post('/favorites', { teacherId, favorite: 'false', next: '/favorites' }, { cookie: someone.cookie });
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe('/favorites');
    expect(await favoritesOf(someone.cookie)).toEqual([]);
  });

  it('400 for a bad next or teacher id, 404 for a teacher that does not exist, 403 from another site', async () => {
    const bad = await post('/favorites', { teacherId, next: '//evil.example' }, { cookie: user.cookie });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { fields: { next: 'Must be a path on this site' } } });
    const badId = await post('/favorites', { teacherId: 'a b', next: '/' }, { cookie: user.cookie });
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({ error: { fields: { teacherId: 'Invalid teacher id' } } });
    const missing = await post('/favorites', { teacherId: 'no-such-teacher', next: '/' }, { cookie: user.cookie });
    expect(missing.statusCode).toBe(404);
    const foreign = await post('/favorites', { teacherId, next: '/' }, { cookie: user.cookie, origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(await favoritesOf(user.cookie)).toEqual([]);
  });
});

/** The messages queued for `to` (the tests run no mail worker: the outbox is the mailbox). */
async function mailTo(to: string): Promise<{ subject: string; text: string }[]> {
  const rows = await t.db.orm
    .select({ message: mailOutbox.message })
    .from(mailOutbox)
    .where(sql`${mailOutbox.message}->>'to' = ${to}`)
    .orderBy(mailOutbox.createdAt);
  return rows.map((r) => r.message as { subject: string; text: string });
}

/** The page's markup without what differs from one render to the next (nonces, the store's request ids). */
const answerOf = (body: string) => /<h1[\s\S]*?<\/section>/.exec(body)?.[0];

describe('POST /forgot-password (Forgot password without JavaScript)', () => {
  it('the same answer for an account and for an unknown address; only the account gets the reset link', async () => {
    const someone = await signUp(t.app);
    const stranger = `nobody-${process.pid}-${Date.now()}@example.com`;
    const known = await post('/forgot-password', { email: someone.email, next: '/teachers' });
    const unknown = await post('/forgot-password', { email: stranger, next: '/teachers' });
    for (const res of [known, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).toContain(accountMessages.resetLinkSent);
      // the answer leads back to Log in, keeping the return path
      expect(res.body).toContain('href="/login?next=%2Fteachers"');
      expect(res.body).not.toMatch(/<form[^>]*action="\/forgot-password"/);
    }
    expect(answerOf(known.body)).toBeDefined();
    expect(answerOf(known.body)).toBe(answerOf(unknown.body));
    expect(known.body).not.toContain(someone.email);
    const mails = (await mailTo(someone.email)).filter((m) => m.subject === 'Reset your LearnLingo password');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`${TEST_ORIGIN}/reset-password?token=`);
    expect(await mailTo(stranger)).toEqual([]);
  });

  it('bad input: 400, the page again naming the field, with what was typed; nothing is sent', async () => {
    const empty = await post('/forgot-password', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Email can&#x27;t be is empty');
    expect(empty.body).toContain('aria-invalid="true"');
    expect(empty.body).toMatch(/<form[^>]*action="\/forgot-password" method="post"/);
    expect(empty.body).not.toContain(accountMessages.resetLinkSent);
    const invalid = await post('/forgot-password', { email: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('Invalid email');
    expect(invalid.body).toContain('value="not-an-email"');
    expect(await mailTo('not-an-email')).toEqual([]);
  });

  it('an over-long field or a bad next is a 400, never a 500', async () => {
    const long = await post('/forgot-password', { email: `${'e'.repeat(5000)}@example.com` });
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('Invalid email');
    const bad = await post('/forgot-password', { email: user.email, next: '//evil.example/' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('The page to go back to is not on this site.');
    expect(bad.body).not.toContain(accountMessages.resetLinkSent);
  });

  it('the reset rate limit counts form posts too (429 with Retry-After, the page says so)', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await post('/forgot-password', { email: `limit-${i}@example.com` }, {}, ip);
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.headers['retry-after']).toMatch(/^\d+$/);
    expect(last?.body).toContain('Too many attempts. Please wait a minute and try again.');
    expect(last?.body).toContain('value="limit-3@example.com"');
  });

  it('a cross-site post is refused (403) and sends nothing', async () => {
    const someone = await signUp(t.app);
    const res = await post('/forgot-password', { email: someone.email }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect((await mailTo(someone.email)).filter((m) => m.subject === 'Reset your LearnLingo password')).toEqual([]);
  });
});

describe('the pages', () => {
  it('GET /login and /register render the forms, posting to the server, with visible labels', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/login?next=%2Fteachers&favorite=' + teacherId });
    expect(login.statusCode).toBe(200);
    expect(login.body).toMatch(/<form[^>]*action="\/login" method="post"/);
    expect(login.body).toContain('<input type="hidden" name="next" value="/teachers"/>');
    expect(login.body).toContain(`<input type="hidden" name="favorite" value="${teacherId}"/>`);
    expect(login.body).toContain('You need to authenticate');
    const register = await t.app.inject({ method: 'GET', url: '/register' });
    expect(register.statusCode).toBe(200);
    expect(register.body).toMatch(/<form[^>]*action="\/register" method="post"/);
    expect(register.body).not.toContain('visually-hidden">Name');
  });

  it('GET /forgot-password renders the modal’s form, posting to the server, with the return path', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/forgot-password?next=%2Fteachers' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Forgot password');
    expect(page.body).toContain('we will send you a link to set a new password');
    expect(page.body).toMatch(/<form[^>]*action="\/forgot-password" method="post"/);
    expect(page.body).toContain('<input type="hidden" name="next" value="/teachers"/>');
    expect(page.body).toContain('Send link');
    expect(page.body).toContain('Remembered it?');
    expect(page.body).not.toContain('visually-hidden">Email');
  });

  it('the Login page’s "Forgot password?" is a link to /forgot-password keeping next', async () => {
    const login = await t.app.inject({ method: 'GET', url: '/login?next=%2Fteachers' });
    expect(login.body).toMatch(/<a [^>]*href="\/forgot-password\?next=%2Fteachers"[^>]*>Forgot password\?<\/a>/);
  });
});
