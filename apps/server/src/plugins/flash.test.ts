import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../catalogue/index.js';
import { createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../test/app.js';
import { readFlash, withFlash } from './flash.js';

/*
 * Issue 28: a form the server answered (the heart, Log in, Registration before the app runs)
 * leads back to a page that says what the app's toast would have said, once.
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../web/dist-ssr/entry-server.js', import.meta.url));

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  t = await createTestApp({ seed: 2, env: { WEB_DIST } });
  user = await signUp(t.app);
});
afterAll(() => t.close());

const STATUS = /<p class="flash" role="status">([^<]*)<\/p>/;

function post(url: string, fields: Record<string, string>, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...(cookie && { cookie }) },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** `name=value` of a Set-Cookie line, as a browser sends it back. */
const pairOf = (setCookie: string) => setCookie.split(';')[0]!;
const setCookies = (headers: Record<string, unknown>) => [headers['set-cookie'] ?? []].flat() as string[];
const page = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('the toast of a form the server answered', () => {
  it('the heart: "Teacher was added" on the page it leads back to, once; "Successfully deleted" after removing', async () => {
    const added = await post('/favorites', { teacherId: generatedTeacherId(1), favorite: 'true', next: '/teachers' }, user.cookie);
    expect(added.statusCode).toBe(303);
    const flash = setCookies(added.headers).find((cookie) => cookie.startsWith('ll_flash='));
    expect(flash).toMatch(/^ll_flash=favoriteAdded; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax/);
    const withIt = `${user.cookie}; ${pairOf(flash!)}`;

    const shown = await page('/teachers', withIt);
    expect(shown.statusCode).toBe(200);
    expect(shown.body.match(STATUS)?.[1]).toBe('Teacher was added');
    expect(shown.headers['cache-control']).toMatch(/private|no-store/);
    expect(setCookies(shown.headers)).toContain('ll_flash=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
    expect((await page('/teachers', user.cookie)).body).not.toMatch(STATUS);

    const removed = await post('/favorites', { teacherId: generatedTeacherId(1), favorite: 'false', next: '/favorites' }, user.cookie);
    const removedFlash = setCookies(removed.headers).find((cookie) => cookie.startsWith('ll_flash='));
    expect((await page('/favorites', `${user.cookie}; ${pairOf(removedFlash!)}`)).body.match(STATUS)?.[1]).toBe('Successfully deleted');
  });

  it('Log in: the session and "Sign in successfully" come with the redirect; with a heart, "Teacher was added"', async () => {
    const plain = await post('/login', { email: user.email, password: user.password, next: '/' });
    expect(plain.statusCode).toBe(303);
    const cookies = setCookies(plain.headers);
    expect(cookies.some((cookie) => cookie.startsWith('ll_flash=signInSuccess;'))).toBe(true);
    expect(cookies.some((cookie) => /session_token=/.test(cookie))).toBe(true);
    const home = await page('/', cookies.map(pairOf).join('; '));
    expect(home.body.match(STATUS)?.[1]).toBe('Sign in successfully');

    const hearted = await post('/login', { email: user.email, password: user.password, next: '/teachers', favorite: generatedTeacherId(2) });
    expect(setCookies(hearted.headers).some((cookie) => cookie.startsWith('ll_flash=favoriteAdded;'))).toBe(true);
  });

  it('a visitor never gets one in a shared page, and an unknown or oversized cookie is no flash', async () => {
    const shared = await page('/teachers', 'll_flash=favoriteAdded');
    expect(shared.body).not.toMatch(STATUS);
    expect(readFlash('ll_flash=<script>')).toBeUndefined();
    expect(readFlash('a=1; ll_flash=signUpSuccess')).toBe('signUpSuccess');
    expect(readFlash(`a=${'x'.repeat(9000)}; ll_flash=signUpSuccess`)).toBeUndefined();
    expect(withFlash('<body><div id="root"></div>', 'favoriteRemoved')).toBe(
      '<body><p class="flash" role="status">Successfully deleted</p><div id="root"></div>',
    );
  });
});
