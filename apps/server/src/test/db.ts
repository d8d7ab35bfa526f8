import { openAsBlob } from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { createPostgresDatabase } from './postgres-database.js';

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
  // from the run's migrated template (postgres-template.ts); migrate() then finds nothing to do
  return createPostgresDatabase(adminUrl, { prefix: 'll_test', template: inject('postgresTemplate'), poolSize });
}
