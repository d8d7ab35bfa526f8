import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.js';
import { seedGenerated } from '../catalogue/index.js';
import { loadEnv, type Env } from '../config/env.js';
import { openDatabase, type Database } from '../db/client.js';
import { createTestDatabase } from './db.js';

export const TEST_ORIGIN = 'http://127.0.0.1:3000';

export function testEnv(overrides: Record<string, string> = {}): Env & { authSecret: string } {
  const env = loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    DATA_DIR: path.join(os.tmpdir(), 'learnlingo-test-unused'),
    WEB_DIST: path.join(os.tmpdir(), 'learnlingo-no-web-dist'),
    ...overrides,
  });
  return { ...env, authSecret: env.authSecret as string };
}

export interface TestApp {
  app: FastifyInstance;
  db: Database;
  close(): Promise<void>;
}

/** A fresh database (seeded with `seed` generated teachers) and an app on it. */
export async function createTestApp(
  options: { seed?: number; env?: Record<string, string>; logStream?: NodeJS.WritableStream; now?: () => number; poolSize?: number } = {},
): Promise<TestApp> {
  const { db, drop } = await createTestDatabase({ poolSize: options.poolSize });
  if (options.seed) await seedGenerated(db, options.seed);
  // look at the catalogue version on every request, so in-test imports show at once
  const env = testEnv({ ...(options.logStream ? { LOG_LEVEL: 'info' } : {}), ...options.env });
  const app = await buildApp({ env, db, catalogueCacheCheckMs: 0, logStream: options.logStream, mailWorker: false, now: options.now });
  await app.ready();
  return {
    app,
    db,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

let ipCounter = 0;
/** A distinct client address per call (sign-in/sign-up are rate-limited per address). */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(process.pid >> 8) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** `name=value; …` for a Cookie header, from a response's Set-Cookie headers. */
export function cookieHeader(response: LightMyRequestResponse): string {
  return response.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

let userCounter = 0;
export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  cookie: string;
}

export async function signUp(app: FastifyInstance, overrides: Partial<Pick<TestUser, 'name' | 'email' | 'password'>> = {}): Promise<TestUser> {
  userCounter += 1;
  const body = {
    name: overrides.name ?? `User ${userCounter}`,
    email: overrides.email ?? `user${userCounter}-${process.pid}-${Date.now()}@example.com`,
    password: overrides.password ?? 'secret-pass-1',
  };
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: TEST_ORIGIN },
    remoteAddress: nextIp(),
    payload: body,
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const { user } = response.json<{ user: { id: string } }>();
  return { ...body, id: user.id, cookie: cookieHeader(response) };
}

export interface TwoServers {
  a: FastifyInstance;
  b: FastifyInstance;
  /** a's database */
  db: Database;
  /** b's: on PostgreSQL its own connections to the same database (as behind a load balancer); on PGlite the same */
  second: Database;
  close(): Promise<void>;
}

/** Two servers on one fresh database (seeded with `seed` generated teachers), on the clock `now`. */
export async function createTwoServers(options: { seed: number; env: Record<string, string>; now: () => number; secondPoolSize?: number }): Promise<TwoServers> {
  const created = await createTestDatabase();
  const db = created.db;
  await seedGenerated(db, options.seed);
  const second = created.url ? await openDatabase({ engine: 'postgres', url: created.url, max: options.secondPoolSize ?? 2 }) : db;
  const shared = { env: testEnv(options.env), catalogueCacheCheckMs: 0, mailWorker: false as const, now: options.now };
  const a = await buildApp({ ...shared, db });
  const b = await buildApp({ ...shared, db: second });
  return {
    a,
    b,
    db,
    second,
    close: async () => {
      await a.close();
      await b.close();
      if (second !== db) await second.close();
      await created.drop();
    },
  };
}
