import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { emailSchema, nameSchema } from '@learnlingo/contract';
import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { account, user } from '../db/schema.js';
import { encodeFirebaseHash, firebaseParamsProblem, type FirebaseHashConfig } from './firebase-scrypt.js';

/*
 * Loads the original's users from Firebase Authentication: a `firebase auth:export` JSON file
 * ({"users": [{localId, email, emailVerified, displayName, passwordHash, salt, createdAt, …}]})
 * and the project's password hash parameters as the console shows them, in JSON
 * ({"algorithm": "SCRYPT", "base64_signer_key", "base64_salt_separator", "rounds", "mem_cost"}).
 *
 * Every record is checked before anything is written; one bad record refuses the file, naming
 * the record and the field. A user keeps their Firebase id and their password: the Firebase
 * hash is kept as it is and replaced with the server's own at their first sign-in
 * (plugins/auth-password.ts). Idempotent: a user whose id is already here is left as it is
 * (they may have changed their name or password since).
 */

export class UsersImportError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
    super(`The users were not imported (nothing was written):\n${shown.map((p) => `  ${p}`).join('\n')}${more}`);
    // runCli prints an ImportError's message without a stack
    this.name = 'ImportError';
  }
}

export interface UsersImportResult {
  inserted: number;
  /** already imported (same id): left as they are */
  unchanged: number;
  /** records Firebase exports that cannot sign in here: no e-mail (phone or anonymous accounts) or disabled */
  skipped: number;
  /** imported without a password (e.g. Google sign-in only): "Forgot password?" gives them one */
  withoutPassword: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64 = (max: number) =>
  z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`).regex(BASE64, 'must be base64');

const hashConfigSchema = z
  .object({
    algorithm: z.literal('SCRYPT', { error: 'must be "SCRYPT" (the only algorithm Firebase exports passwords with)' }),
    base64_signer_key: base64(1000),
    base64_salt_separator: z.string().max(100).regex(BASE64, 'must be base64'),
    rounds: z.number().int(),
    mem_cost: z.number().int(),
  })
  .superRefine((config, ctx) => {
    const problem = firebaseParamsProblem({ rounds: config.rounds, memCost: config.mem_cost });
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: [problem.startsWith('mem_cost') ? 'mem_cost' : 'rounds'] });
  });

/** Firebase's localId: 28 letters and digits for its own accounts; up to 128 for uploaded ones. */
const localIdSchema = z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters').regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only');

const userRecordSchema = z.object({
  localId: localIdSchema,
  email: z.string().max(1000).optional(),
  emailVerified: z.boolean().optional(),
  displayName: z.string().max(1000).optional(),
  passwordHash: base64(1000).optional(),
  salt: base64(1000).optional(),
  // milliseconds since the epoch, as a string in auth:export's JSON
  createdAt: z.union([z.string().max(20).regex(/^\d{1,16}$/, 'must be milliseconds since 1970'), z.number().int().nonnegative()]).optional(),
  disabled: z.boolean().optional(),
});

interface ImportedUser {
  label: string;
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  createdAt: Date;
  /** the Firebase hash, encoded for account.password */
  password: string | null;
}

function readConfig(data: unknown): FirebaseHashConfig {
  const parsed = hashConfigSchema.safeParse(data);
  if (!parsed.success) {
    throw new UsersImportError(parsed.error.issues.map((issue) => `hash config${issue.path.length ? `.${issue.path.join('.')}` : ''}: ${issue.message}`));
  }
  return {
    signerKey: parsed.data.base64_signer_key,
    saltSeparator: parsed.data.base64_salt_separator,
    rounds: parsed.data.rounds,
    memCost: parsed.data.mem_cost,
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks the whole export; throws UsersImportError listing every bad record and field. */
export function parseUsersExport(data: unknown, configData: unknown): { users: ImportedUser[]; skipped: number } {
  if (!isPlainObject(data) || !Array.isArray(data.users)) {
    throw new UsersImportError(['the file must be a Firebase auth:export JSON file: {"users": [...]}']);
  }
  const config = configData === undefined ? null : readConfig(configData);
  const problems: string[] = [];
  const users: ImportedUser[] = [];
  const ids = new Map<string, string>();
  const emails = new Map<string, string>();
  let skipped = 0;

  data.users.forEach((value: unknown, index) => {
    const label = `users[${index}]${isPlainObject(value) && typeof value.localId === 'string' ? ` (localId ${value.localId.slice(0, 128)})` : ''}`;
    if (!isPlainObject(value)) {
      problems.push(`${label}: expected a user object`);
      return;
    }
    const parsed = userRecordSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(`${label}.${issue.path.join('.')}: ${issue.message}`);
      return;
    }
    const record = parsed.data;
    if (record.email === undefined || record.email === '' || record.disabled === true) {
      skipped += 1;
      return;
    }
    const email = emailSchema.safeParse(record.email);
    if (!email.success) {
      problems.push(`${label}.email: ${email.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const address = email.data.toLowerCase();
    const name = nameSchema.safeParse(record.displayName ?? address.split('@')[0]);
    if (!name.success) {
      problems.push(`${label}.displayName: ${name.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    if ((record.passwordHash === undefined) !== (record.salt === undefined)) {
      problems.push(`${label}.${record.passwordHash === undefined ? 'passwordHash' : 'salt'}: missing (a password needs both passwordHash and salt)`);
      return;
    }
    if (record.passwordHash !== undefined && config === null) {
      problems.push(`${label}.passwordHash: the file holds passwords; give the project's hash parameters with --hash-config CONFIG.json`);
      return;
    }
    const createdAt = record.createdAt === undefined ? new Date() : new Date(Number(record.createdAt));
    if (Number.isNaN(createdAt.getTime())) {
      problems.push(`${label}.createdAt: not a date`);
      return;
    }
    const sameId = ids.get(record.localId);
    if (sameId !== undefined) {
      problems.push(`${label}.localId: duplicate (also at ${sameId})`);
      return;
    }
    const sameEmail = emails.get(address);
    if (sameEmail !== undefined) {
      problems.push(`${label}.email: duplicate (also at ${sameEmail})`);
      return;
    }
    ids.set(record.localId, label);
    emails.set(address, label);
    users.push({
      label,
      id: record.localId,
      name: name.data,
      email: address,
      emailVerified: record.emailVerified ?? false,
      createdAt,
      password:
        record.passwordHash !== undefined && record.salt !== undefined && config !== null
          ? encodeFirebaseHash(config, record.salt, record.passwordHash)
          : null,
    });
  });

  if (problems.length > 0) throw new UsersImportError(problems);
  return { users, skipped };
}

const CHUNK = 500;

/** Writes checked users in one transaction; ids already here are left untouched. */
export async function importUsers(db: Database, users: ImportedUser[], skipped: number): Promise<UsersImportResult> {
  return db.orm.transaction(async (tx) => {
    // An address already used by a different account here (someone registered anew) refuses the file.
    const existing = new Map<string, string>();
    for (let i = 0; i < users.length; i += CHUNK) {
      const chunk = users.slice(i, i + CHUNK);
      const rows = await tx
        .select({ id: user.id, email: user.email })
        .from(user)
        .where(sql`${inArray(user.id, chunk.map((u) => u.id))} or ${inArray(user.email, chunk.map((u) => u.email))}`);
      for (const row of rows) existing.set(row.id, row.email);
      const byEmail = new Map(rows.map((row) => [row.email, row.id]));
      const problems = chunk
        .filter((u) => byEmail.has(u.email) && byEmail.get(u.email) !== u.id && !existing.has(u.id))
        .map((u) => `${u.label}.email: already used by another account on this server`);
      if (problems.length > 0) throw new UsersImportError(problems);
    }

    const fresh = users.filter((u) => !existing.has(u.id));
    for (let i = 0; i < fresh.length; i += CHUNK) {
      const chunk = fresh.slice(i, i + CHUNK);
      await tx.insert(user).values(
        chunk.map((u) => ({ id: u.id, name: u.name, email: u.email, emailVerified: u.emailVerified, createdAt: u.createdAt, updatedAt: u.createdAt })),
      );
      const credentials = chunk.filter((u) => u.password !== null);
      if (credentials.length > 0) {
        await tx.insert(account).values(
          credentials.map((u) => ({
            id: randomUUID(),
            accountId: u.id,
            providerId: 'credential',
            userId: u.id,
            password: u.password,
            createdAt: u.createdAt,
            updatedAt: u.createdAt,
          })),
        );
      }
    }
    return {
      inserted: fresh.length,
      unchanged: users.length - fresh.length,
      skipped,
      withoutPassword: fresh.filter((u) => u.password === null).length,
    };
  });
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsersImportError([`cannot read the ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsersImportError([`the ${what} ${file} is not valid JSON: ${(error as Error).message}`]);
  }
}

export async function importUsersFile(db: Database, exportFile: string, hashConfigFile?: string): Promise<UsersImportResult> {
  const data = await readJson(exportFile, 'export');
  const config = hashConfigFile === undefined ? undefined : await readJson(hashConfigFile, 'hash config');
  const { users, skipped } = parseUsersExport(data, config);
  return importUsers(db, users, skipped);
}
