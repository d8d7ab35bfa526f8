import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';

export type TestEngine = 'pglite' | 'postgres';

export const testEngine: TestEngine = process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  db: Database;
  /** on PostgreSQL, the URL of this test's own database (to open more connections to it) */
  url?: string;
  /** closes the connection and, on PostgreSQL, drops the database */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: PGlite in memory, or — with
 * TEST_DB_ENGINE=postgres — a uniquely named database created on TEST_DATABASE_URL and
 * dropped afterwards, so parallel files and concurrent CI runs never collide.
 */
export async function createTestDatabase({ poolSize = 4 }: { poolSize?: number | undefined } = {}): Promise<TestDatabase> {
  if (testEngine === 'pglite') {
    // from the run's migrated template (pglite-template.ts); migrate() then finds nothing to do
    const template = inject('pgliteTemplate');
    const db = await openDatabase({
      engine: 'pglite',
      dataDir: 'memory',
      from: template ? await openAsBlob(template) : undefined,
      sharedBuffers: '16MB',
    });
    await db.migrate();
    return { db, drop: () => db.close() };
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    throw new Error('TEST_DB_ENGINE=postgres needs TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');
  }
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  // a dropped admin connection fails the next create/drop; it must not be an unhandled 'error' event
  admin.on('error', () => {});
  const name = `ll_test_${randomBytes(6).toString('hex')}`;
  try {
    await admin.connect();
    // from the run's migrated template (postgres-template.ts); migrate() then finds nothing to do
    const template = inject('postgresTemplate');
    await admin.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } catch (error) {
    await admin.end().catch(() => {});
    throw new Error(
      `PostgreSQL at TEST_DATABASE_URL is unreachable or refuses CREATE DATABASE` +
        `${process.env.CI === 'true' ? ' (CI=true: the PostgreSQL run must not be skipped)' : ''}: ${(error as Error).message}`,
    );
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ engine: 'postgres', url: url.toString(), max: poolSize });
  await db.migrate();
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
