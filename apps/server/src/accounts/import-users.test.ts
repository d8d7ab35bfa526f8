import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '../db/data-dir-lock.js';
import { account, user } from '../db/schema.js';
import { cookieHeader, createTestApp, nextIp, TEST_ORIGIN, type TestApp } from '../test/app.js';
import { testEngine } from '../test/db.js';
import { decodeFirebaseHash, encodeFirebaseHash, firebaseScryptHash, isFirebaseHash, verifyFirebaseScrypt } from './firebase-scrypt.js';
import { importUsersFile, parseUsersExport, UsersImportError } from './import-users.js';
import { builtEntry } from '../test/built.js';

/*
 * Firebase's published test vector (github.com/firebase/scrypt, README "Password Hashing"):
 * the sample project's hash parameters, and user1@test.com's salt and hash for "user1password".
 */
const VECTOR = {
  config: {
    algorithm: 'SCRYPT',
    base64_signer_key: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
    base64_salt_separator: 'Bw==',
    rounds: 8,
    mem_cost: 14,
  },
  localId: 'kYi4EvWQlQTKSfnJ3dRSP6IH3ed2',
  email: 'user1@test.com',
  salt: '42xEC+ixf3L2lw==',
  passwordHash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
  password: 'user1password',
};
const CONFIG = {
  signerKey: VECTOR.config.base64_signer_key,
  saltSeparator: VECTOR.config.base64_salt_separator,
  rounds: VECTOR.config.rounds,
  memCost: VECTOR.config.mem_cost,
};

const vectorUser = {
  localId: VECTOR.localId,
  email: VECTOR.email,
  emailVerified: false,
  passwordHash: VECTOR.passwordHash,
  salt: VECTOR.salt,
  displayName: 'Test User 1',
  createdAt: '1508893925000',
  lastSignedInAt: '1508893925000',
  providerUserInfo: [{ providerId: 'password', email: VECTOR.email }],
};
const exportFile = {
  users: [
    vectorUser,
    // a Google-only account: no password here until "Forgot password?"
    { localId: 'googleOnly000000000000000001', email: 'Google.User@Example.com', emailVerified: true, displayName: 'Gail Google', createdAt: '1600000000000' },
    // cannot sign in with an e-mail: skipped
    { localId: 'phoneOnly0000000000000000001', phoneNumber: '+15555550100' },
    { localId: 'disabled00000000000000000001', email: 'gone@example.com', disabled: true, passwordHash: VECTOR.passwordHash, salt: VECTOR.salt },
  ],
};

describe('Firebase modified scrypt', () => {
  it('reproduces Firebase\'s published test vector', async () => {
    expect(await firebaseScryptHash(VECTOR.password, VECTOR.salt, CONFIG)).toBe(VECTOR.passwordHash);
    expect(await verifyFirebaseScrypt(VECTOR.password, VECTOR.salt, VECTOR.passwordHash, CONFIG)).toBe(true);
    expect(await verifyFirebaseScrypt('user1Password', VECTOR.salt, VECTOR.passwordHash, CONFIG)).toBe(false);
    expect(await verifyFirebaseScrypt(VECTOR.password, VECTOR.salt, VECTOR.passwordHash, { ...CONFIG, saltSeparator: 'Bg==' })).toBe(false);
  });

  it('keeps a hash with its parameters in one string, and refuses a damaged one', () => {
    const stored = encodeFirebaseHash(CONFIG, VECTOR.salt, VECTOR.passwordHash);
    expect(isFirebaseHash(stored)).toBe(true);
    expect(decodeFirebaseHash(stored)).toEqual({ config: CONFIG, salt: VECTOR.salt, hash: VECTOR.passwordHash });
    expect(decodeFirebaseHash(stored.replace('$8$14$', '$8$40$'))).toBeNull();
    expect(decodeFirebaseHash(`${stored}$extra`)).toBeNull();
    expect(decodeFirebaseHash('salt:hash')).toBeNull();
  });
});

describe(`import-users (${testEngine})`, () => {
  let t: TestApp;
  let tmp: string;
  beforeAll(async () => {
    t = await createTestApp();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-users-'));
  });
  afterAll(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
    await t.close();
  });

  const write = (name: string, data: unknown) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, JSON.stringify(data));
    return file;
  };
  const userCount = async () => (await t.db.rows<{ n: number }>(sql`select count(*)::int as n from "user"`))[0]?.n;
  const signIn = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { origin: TEST_ORIGIN }, remoteAddress: nextIp(), payload: { email, password } });
  const storedPassword = async (userId: string) =>
    (await t.db.orm.select({ password: account.password }).from(account).where(eq(account.userId, userId)))[0]?.password;

  it('refuses a bad record naming the record and the field, and writes nothing', async () => {
    const config = write('config.json', VECTOR.config);
    const cases: [unknown, unknown, string][] = [
      [{ users: [vectorUser, { localId: 'badEmail', email: 'not-an-email' }] }, VECTOR.config, 'users[1] (localId badEmail).email: Invalid email'],
      [{ users: [{ ...vectorUser, salt: undefined }] }, VECTOR.config, `users[0] (localId ${VECTOR.localId}).salt: missing`],
      [{ users: [{ ...vectorUser, passwordHash: 'not base64!' }] }, VECTOR.config, 'passwordHash: must be base64'],
      [{ users: [{ ...vectorUser, displayName: 'x'.repeat(101) }] }, VECTOR.config, 'displayName: Name must be at most 100 characters'],
      [{ users: [vectorUser, { ...vectorUser, localId: 'other' }] }, VECTOR.config, 'users[1] (localId other).email: duplicate (also at users[0]'],
      [{ users: [vectorUser, { localId: 'a b', email: 'x@example.com' }] }, VECTOR.config, 'users[1] (localId a b).localId: letters, digits'],
      [{ users: [vectorUser] }, undefined, 'users[0] (localId kYi4EvWQlQTKSfnJ3dRSP6IH3ed2).passwordHash: the file holds passwords; give'],
      [{ users: [vectorUser] }, { ...VECTOR.config, algorithm: 'BCRYPT' }, 'hash config.algorithm: must be "SCRYPT"'],
      [{ users: [vectorUser] }, { ...VECTOR.config, mem_cost: 30 }, 'hash config.mem_cost: mem_cost must be an integer from 1 to 17'],
      [{ teachers: [] }, VECTOR.config, 'the file must be a Firebase auth:export JSON file'],
    ];
    for (const [data, hashConfig, expected] of cases) {
      const file = write('bad.json', data);
      const configFile = hashConfig === undefined ? undefined : hashConfig === VECTOR.config ? config : write('bad-config.json', hashConfig);
      const error = await importUsersFile(t.db, file, configFile).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsersImportError);
      expect((error as Error).message).toContain('nothing was written');
      expect((error as Error).message).toContain(expected);
    }
    expect(await userCount()).toBe(0);
  });

  it('imports users keeping their Firebase password; the first sign-in rehashes it; a second import changes nothing', async () => {
    const file = write('export.json', exportFile);
    const config = write('config.json', VECTOR.config);
    expect(await importUsersFile(t.db, file, config)).toEqual({ inserted: 2, unchanged: 0, skipped: 2, withoutPassword: 1 });
    const [imported] = await t.db.orm.select().from(user).where(eq(user.id, VECTOR.localId));
    expect(imported).toMatchObject({ name: 'Test User 1', email: VECTOR.email, emailVerified: false, createdAt: new Date(1508893925000) });
    const [google] = await t.db.orm.select().from(user).where(eq(user.id, 'googleOnly000000000000000001'));
    expect(google).toMatchObject({ email: 'google.user@example.com', emailVerified: true });
    expect(isFirebaseHash((await storedPassword(VECTOR.localId)) ?? '')).toBe(true);

    // a wrong password neither signs in nor rehashes
    expect((await signIn(VECTOR.email, 'wrong-password1')).statusCode).toBe(401);
    expect(isFirebaseHash((await storedPassword(VECTOR.localId)) ?? '')).toBe(true);

    const first = await signIn(VECTOR.email, VECTOR.password);
    expect(first.statusCode).toBe(200);
    const rehashed = (await storedPassword(VECTOR.localId)) ?? '';
    expect(isFirebaseHash(rehashed)).toBe(false);
    expect(rehashed).toMatch(/^[0-9a-f]+:[0-9a-f]+$/); // better-auth's scrypt "salt:key"
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: cookieHeader(first) } });
    expect(session.json()).toMatchObject({ user: { id: VECTOR.localId, email: VECTOR.email } });
    expect((await signIn(VECTOR.email, VECTOR.password)).statusCode).toBe(200);
    expect(await storedPassword(VECTOR.localId)).toBe(rehashed);

    expect(await importUsersFile(t.db, file, config)).toEqual({ inserted: 0, unchanged: 2, skipped: 2, withoutPassword: 0 });
    expect(await storedPassword(VECTOR.localId)).toBe(rehashed);
    expect(await userCount()).toBe(2);
  });

  it('refuses an export whose e-mail already belongs to another account here, writing nothing', async () => {
    const data = { users: [{ localId: 'newcomer0000000000000000001', email: 'fresh@example.com' }, { localId: 'clash', email: VECTOR.email.toUpperCase() }] };
    const error = await importUsersFile(t.db, write('clash.json', data)).catch((e: unknown) => e);
    expect((error as Error).message).toContain('users[1] (localId clash).email: already used by another account on this server');
    expect(await t.db.orm.select().from(user).where(eq(user.email, 'fresh@example.com'))).toHaveLength(0);
  });

  it('parses without a database: skips what cannot sign in here', () => {
    expect(parseUsersExport({ users: [] }, undefined)).toEqual({ users: [], skipped: 0 });
    expect(parseUsersExport({ users: [{ localId: 'x', email: '' }] }, undefined).skipped).toBe(1);
  });
});

const CLI = builtEntry('cli/import-users.ts');

function runCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe.skipIf(testEngine === 'postgres')('npm run import-users (the command on an embedded DATA_DIR; PGlite run only)', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-users-cli-'));
    fs.writeFileSync(path.join(dir, 'export.json'), JSON.stringify(exportFile));
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(VECTOR.config));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('imports, is idempotent, and refuses to run while another process holds DATA_DIR', { timeout: 180_000 }, async () => {
    const dataDir = path.join(dir, 'data');
    const args = [path.join(dir, 'export.json'), '--hash-config', path.join(dir, 'config.json')];
    const first = await runCli(args, { DATA_DIR: dataDir });
    expect(first.out).toContain('2 inserted, 0 already here');
    expect(first.code).toBe(0);
    const again = await runCli(args, { DATA_DIR: dataDir });
    expect(again.out).toContain('0 inserted, 2 already here');

    const lock = acquireDataDirLock(dataDir, { display: dataDir, command: 'the test' });
    try {
      const refused = await runCli(args, { DATA_DIR: dataDir });
      expect(refused.code).toBe(1);
      expect(refused.out).toContain(`is in use by pid ${process.pid}`);
    } finally {
      lock.release();
    }

    const usage = await runCli([path.join(dir, 'export.json'), '--hash'], { DATA_DIR: dataDir });
    expect(usage.code).toBe(1);
    expect(usage.out).toContain('Usage: npm run import-users -- EXPORT.json --hash-config CONFIG.json');
  });
});
