import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { acquireDataDirLock } from '../db/data-dir-lock.js';
import { mailOutbox, staffActivity, teacher, teacherAccount, user } from '../db/schema.js';
import { cookieHeader, createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp } from '../test/app.js';
import { testEngine } from '../test/db.js';
import { addAdmin, removeAdmin } from './admin-accounts.js';
import { builtEntry } from '../test/built.js';

/*
 * `npm run admin` (issue 24): add creates an admin with a set-password link (the reset flow)
 * or promotes an account; remove demotes; both idempotent and audited. The command itself
 * (its messages, the .eml, the DATA_DIR lock) on an embedded DATA_DIR.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 1 });
});
afterAll(() => t.close());

const post = (url: string, payload: Record<string, unknown>, cookie?: string) =>
  t.app.inject({ method: 'POST', url, headers: { origin: TEST_ORIGIN, ...(cookie && { cookie }) }, remoteAddress: nextIp(), payload });

async function resetToken(email: string): Promise<string> {
  const rows = await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).where(sql`${mailOutbox.message}->>'to' = ${email}`);
  const text = rows.map((row) => (row.message as { text: string }).text).join('\n');
  const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no set-password mail to ${email}`);
  return token;
}

describe(`addAdmin and removeAdmin (${testEngine})`, () => {
  it('add: creates the admin, whose e-mailed link sets the password; the console opens; again: nothing changes', async () => {
    const email = 'head@example.com';
    expect(await addAdmin(t.db, t.app.auth, { email: 'Head@Example.com', name: 'Hedda Head' })).toEqual({ outcome: 'created', linkQueued: true, previousRole: null });
    const token = await resetToken(email);
    expect((await post('/api/auth/reset-password', { token, newPassword: 'head-pass-1' })).statusCode).toBe(200);
    const signedIn = await post('/api/auth/sign-in/email', { email, password: 'head-pass-1' });
    expect(signedIn.statusCode).toBe(200);
    const cookie = cookieHeader(signedIn);
    expect(signedIn.json()).toMatchObject({ user: { name: 'Hedda Head', role: 'admin' } });
    const log = await t.app.inject({ method: 'GET', url: '/api/staff/activity', headers: { cookie } });
    expect(log.statusCode).toBe(200);
    expect(log.json()).toMatchObject({ items: [{ action: 'user.create', actor: { id: null, name: 'Command line (npm run admin)' }, after: { email, role: 'admin' } }] });

    const mails = async () => (await t.db.orm.select().from(mailOutbox)).length;
    const before = await mails();
    expect(await addAdmin(t.db, t.app.auth, { email })).toEqual({ outcome: 'already', linkQueued: false, previousRole: 'admin' });
    expect(await mails()).toBe(before);
    expect(await t.db.orm.select().from(staffActivity)).toHaveLength(1);
  });

  it('add: promotes an existing teacher (its binding goes) without a link, as it has a password; remove: demotes, once', async () => {
    const person = await signUp(t.app, { name: 'Tom Teacher' });
    const [profile] = await t.db.orm.select({ id: teacher.id }).from(teacher);
    await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, person.id));
    await t.db.orm.insert(teacherAccount).values({ teacherId: profile!.id, userId: person.id });
    expect(await addAdmin(t.db, t.app.auth, { email: person.email })).toEqual({ outcome: 'promoted', linkQueued: false, previousRole: 'teacher' });
    expect(await t.db.orm.select().from(teacherAccount)).toHaveLength(0);

    expect(await removeAdmin(t.db, person.email)).toEqual({ outcome: 'demoted', adminsLeft: 1 });
    expect(await removeAdmin(t.db, person.email)).toEqual({ outcome: 'not-admin', role: 'learner' });
    await expect(removeAdmin(t.db, 'nobody@example.com')).rejects.toThrow('No account has the e-mail nobody@example.com');
    await expect(addAdmin(t.db, t.app.auth, { email: 'not-an-email' })).rejects.toThrow(/^EMAIL: /);
    const rows = await t.db.orm.select().from(staffActivity).where(eq(staffActivity.subjectId, person.id)).orderBy(staffActivity.id);
    expect(rows.map((row) => [row.before, row.after])).toEqual([
      [{ role: 'teacher', teacherId: profile!.id }, { role: 'admin', teacherId: null }],
      [{ role: 'admin' }, { role: 'learner' }],
    ]);
  });
});

const CLI = builtEntry('cli/admin.ts');

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', SMTP_URL: '', AUTH_SECRET: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe.skipIf(testEngine === 'postgres')('npm run admin (the command on an embedded DATA_DIR; PGlite run only)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-admin-cli-'));
    // DATA_DIR's database from the run's migrated template, so the command migrates nothing
    const template = inject('pgliteTemplate');
    if (template) {
      fs.mkdirSync(path.join(dir, 'data'), { mode: 0o700 });
      const pglite = new PGlite(path.join(dir, 'data', 'pglite'), { extensions: { pg_trgm, unaccent }, loadDataDir: await fs.openAsBlob(template) });
      await pglite.close();
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('add writes the set-password e-mail to the outbox; it waits for DATA_DIR; bad use prints the usage', { timeout: 120_000 }, async () => {
    const dataDir = path.join(dir, 'data');
    const added = await runCli(['add', 'first@example.com', '--name', 'First Admin'], { DATA_DIR: dataDir, PUBLIC_ORIGIN: 'http://127.0.0.1:4999' });
    expect(added.out).toContain('Created the admin account first@example.com.');
    expect(added.out).toMatch(/e-mailed to first@example\.com \(no SMTP_URL: written to .*outbox\/.*\.eml\)/);
    expect(added.code).toBe(0);
    const outbox = path.join(dataDir, 'outbox');
    const [file] = fs.readdirSync(outbox);
    expect(fs.statSync(path.join(outbox, file!)).mode & 0o777).toBe(0o600);
    const mail = fs.readFileSync(path.join(outbox, file!), 'utf8');
    expect(mail).toContain('Subject: Your LearnLingo admin account');
    expect(mail).toMatch(/http:\/\/127\.0\.0\.1:4999\/reset-password\?token=[A-Za-z0-9_-]+/);

    const lock = acquireDataDirLock(dataDir, { display: dataDir, command: 'the test' });
    try {
      const refused = await runCli(['remove', 'first@example.com'], { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(`is in use by pid ${process.pid}`);
    } finally {
      lock.release();
    }

    const usage = await runCli(['promote', 'first@example.com'], { DATA_DIR: dataDir });
    expect(usage.code).toBe(1);
    expect(usage.out).toContain('Usage: npm run admin -- add EMAIL [--name NAME]');
  });
});
