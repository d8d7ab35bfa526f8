import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, formOf, test, uniqueUser, signUpViaApi } from './fixtures';
import { linkFromOutbox } from './outbox';

/*
 * Issue 24 (decision 109): the school's first admin comes from the command line, on a
 * server of this journey's own — `npm run admin` needs its DATA_DIR, which the shared e2e
 * server holds — sets a password from the e-mail and opens the console; invites a teacher,
 * who sets a password from their e-mail and signs in; a learner who types /admin gets the
 * not-found page.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, 'e2e', `.data/admin-${process.env.E2E_PORT}-${process.pid}`);
let server: ChildProcess | undefined;
let base = '';

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env, DATA_DIR: dataDir, PUBLIC_ORIGIN: base, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', AUTH_ATTEMPTS_PER_10S: '100', SEED_COUNT: '6' };
  // the command, before any server holds DATA_DIR
  const admin = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/admin.js'), 'add', 'head@school.example', '--name', 'Hedda Head'], { env, encoding: 'utf8' });
  expect(admin.status, admin.stderr).toBe(0);
  expect(admin.stdout).toContain('Created the admin account head@school.example.');
  server = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  await expect.poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 60_000 }).toBe(200);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

test('the first admin from the command line opens the console and invites a teacher, who signs in; a learner gets the 404', async ({ browser }) => {
  test.setTimeout(90_000);
  const outbox = path.join(dataDir, 'outbox');

  // the admin: the e-mailed link sets the password, then the console is one click away
  const adminPage = await (await browser.newContext({ baseURL: base })).newPage();
  const welcome = await linkFromOutbox('head@school.example', /^Subject: Your LearnLingo admin account/m, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/, outbox);
  await adminPage.goto(new URL(welcome).pathname + new URL(welcome).search);
  await adminPage.getByLabel('New password', { exact: true }).fill('head-pass-1');
  await adminPage.getByRole('button', { name: 'Save password' }).click();
  const login = formOf(adminPage, 'Login');
  await login.getByLabel('Email', { exact: true }).fill('head@school.example');
  await login.getByLabel('Password', { exact: true }).fill('head-pass-1');
  await login.getByRole('button', { name: 'Log In' }).click();
  const header = adminPage.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Welcome Hedda Head' })).toBeVisible();
  await header.getByRole('link', { name: 'Admin' }).click();
  await expect(adminPage.getByRole('heading', { level: 1, name: 'School console' })).toBeVisible();
  await expect(adminPage).toHaveURL(/\/admin$/);

  // People: invite a teacher to a profile of the catalogue
  const teacherId = ((await (await fetch(`${base}/api/teachers?limit=1`)).json()) as { items: { id: string }[] }).items[0]!.id;
  const console = adminPage.getByRole('navigation', { name: 'Console' });
  await console.getByRole('link', { name: 'People' }).click();
  await expect(adminPage.getByRole('table', { name: 'Accounts' }).getByText('head@school.example')).toBeVisible();
  const teacher = uniqueUser('Tara Teacher');
  await adminPage.getByLabel('Teacher profile id (as in /teachers/ID)').fill(teacherId);
  await adminPage.getByLabel('Teacher’s e-mail').fill(teacher.email);
  await adminPage.getByRole('button', { name: 'Send invitation' }).click();
  await expect(adminPage.getByText(`Invitation sent to ${teacher.email}.`)).toBeVisible();
  await expect(adminPage.getByRole('group', { name: `Invitations of ${teacherId}` }).getByText(teacher.email)).toBeVisible();

  // the teacher: the invitation's link sets a password; then they sign in, as a teacher (no Admin)
  const invitation = await linkFromOutbox(teacher.email, /^Subject: You are invited to teach on LearnLingo/m, /https?:\/\/\S+\/invite\?token=[A-Za-z0-9_-]+/, outbox);
  const teacherPage = await (await browser.newContext({ baseURL: base })).newPage();
  await teacherPage.goto(new URL(invitation).pathname + new URL(invitation).search);
  await expect(teacherPage.getByRole('heading', { level: 1, name: 'Your teacher account' })).toBeVisible();
  await teacherPage.getByLabel('Your name').fill(teacher.name);
  await teacherPage.getByLabel('Password', { exact: true }).fill(teacher.password);
  await teacherPage.getByRole('button', { name: 'Set password' }).click();
  await expect(teacherPage.getByText('Your password is set.')).toBeVisible();
  await teacherPage.getByRole('link', { name: 'Log in' }).last().click();
  const teacherLogin = formOf(teacherPage, 'Login');
  await teacherLogin.getByLabel('Email', { exact: true }).fill(teacher.email);
  await teacherLogin.getByLabel('Password', { exact: true }).fill(teacher.password);
  await teacherLogin.getByRole('button', { name: 'Log In' }).click();
  const teacherHeader = teacherPage.getByRole('banner');
  await expect(teacherHeader.getByRole('link', { name: `Welcome ${teacher.name}` })).toBeVisible();
  await expect(teacherHeader.getByRole('link', { name: 'Admin' })).toHaveCount(0);

  // the console sees the account bound and the change in Activity
  await adminPage.reload();
  await expect(adminPage.getByText(`The profile ${teacherId} belongs to ${teacher.name} (${teacher.email}).`)).toBeVisible();
  await console.getByRole('link', { name: 'Activity' }).click();
  await expect(adminPage.getByText('Accepted an invitation')).toBeVisible();

  // a learner who types /admin: the not-found page, with its 404
  const learnerContext = await browser.newContext({ baseURL: base });
  const learner = uniqueUser('Lena Learner');
  await signUpViaApi(learnerContext.request, base, learner);
  const learnerPage = await learnerContext.newPage();
  const answer = await learnerPage.goto('/admin');
  expect(answer?.status()).toBe(404);
  await expect(learnerPage.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(learnerPage.getByRole('heading', { name: 'School console' })).toHaveCount(0);
  for (const context of [adminPage.context(), teacherPage.context(), learnerContext]) await context.close();
});
