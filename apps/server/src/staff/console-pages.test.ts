import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, teacher, user } from '../db/schema.js';
import { createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../test/app.js';
import { testEngine } from '../test/db.js';

/*
 * /admin rendered on the server (decision 109): a visitor is redirected to `/`, a signed-in
 * non-admin gets the not-found page with its 404, an admin the console; never cached.
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../web/dist-ssr/entry-server.js', import.meta.url));

let t: TestApp;
let learner: TestUser;
let teacherUser: TestUser;
let admin: TestUser;
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  t = await createTestApp({ seed: 1, env: { WEB_DIST } });
  [learner, teacherUser, admin] = [await signUp(t.app), await signUp(t.app), await signUp(t.app, { name: 'Ada Admin' })];
  await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, teacherUser.id));
  await t.db.orm.update(user).set({ role: 'admin' }).where(eq(user.id, admin.id));
});
afterAll(() => t.close());

const page = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...(cookie && { cookie }) }, remoteAddress: nextIp() });

describe(`the console's pages on the server (${testEngine})`, () => {
  it('a visitor asking for /admin or a tab is redirected to the home page', async () => {
    for (const url of ['/admin', '/admin/people']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/');
    }
  });

  it('a learner and a teacher get the not-found page (404), without the console', async () => {
    for (const who of [learner, teacherUser]) {
      const res = await page('/admin', who.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Page not found');
      expect(res.body).not.toContain('School console');
      expect(res.body).not.toContain('href="/admin"');
    }
  });

  it('an admin gets the console, with the Admin link in the header; private, never cached', async () => {
    const res = await page('/admin', admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('School console');
    expect(res.body).toMatch(/<a[^>]*href="\/admin"[^>]*>Admin<\/a>/);
    expect(res.body).toMatch(/<a[^>]*href="\/admin\/people"[^>]*>People<\/a>/);
    expect(res.headers['cache-control']).toMatch(/private|no-store/);
    const tab = await page('/admin/settings', admin.cookie);
    expect(tab.statusCode).toBe(200);
    expect(tab.body).toMatch(/aria-current="page"[^>]*>Settings</);
  });

  it('an admin asking for a path that is no tab gets the 404', async () => {
    expect((await page('/admin/nothing-here', admin.cookie)).statusCode).toBe(404);
  });

  it('People and Activity come with their data in the HTML', async () => {
    const people = await page(`/admin/people?q=${encodeURIComponent('Ada Admin')}`, admin.cookie);
    expect(people.statusCode).toBe(200);
    expect(people.body).toContain(admin.email);
    expect(people.body).not.toContain(learner.email);
    const activity = await page('/admin/activity', admin.cookie);
    expect(activity.statusCode).toBe(200);
    expect(activity.body).toContain('Nothing has changed yet.');
  });

  it('/invite: a link that works shows the form; none, or one that does not, answers 404', async () => {
    expect((await page('/invite')).statusCode).toBe(404);
    expect((await page(`/invite?token=${'A'.repeat(32)}`)).statusCode).toBe(404);
    const [profile] = await t.db.orm.select({ id: teacher.id, name: teacher.name }).from(teacher);
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/staff/teachers/${profile!.id}/invitations`,
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      remoteAddress: nextIp(),
      payload: { email: 'invited@example.com' },
    });
    expect(invited.statusCode).toBe(201);
    const [mail] = await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).where(sql`${mailOutbox.message}->>'to' = 'invited@example.com'`);
    const link = /\/invite\?token=[A-Za-z0-9_-]{32}/.exec((mail?.message as { text: string }).text)?.[0];
    const res = await page(link!);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(profile!.name);
    expect(res.body).toContain('Set password');
    expect(res.headers['cache-control']).toMatch(/private|no-store/);
  });
});
