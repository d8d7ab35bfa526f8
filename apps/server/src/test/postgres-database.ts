import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.js';
import type { TestDatabase } from './db.js';

/**
 * A uniquely named, migrated database created on the PostgreSQL at `adminUrl` (copied from
 * `template` when given), and how to drop it: each test file's database (db.ts) and the run's
 * template (postgres-template.ts). Without vitest's runtime, so that the global setup can use it.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  { prefix, template, poolSize }: { prefix: string; template?: string | undefined; poolSize: number },
): Promise<TestDatabase & { url: string }> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  // a dropped admin connection fails the next create/drop; it must not be an unhandled 'error' event
  admin.on('error', () => {});
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  try {
    await admin.connect();
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
  const dropDatabase = async () => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
  let db: Database | undefined;
  try {
    db = await openDatabase({ engine: 'postgres', url: url.toString(), max: poolSize });
    await db.migrate();
  } catch (error) {
    // a migration that fails leaves no database behind (nor the admin connection open)
    await db?.close().catch(() => {});
    await dropDatabase().catch(() => {});
    throw error;
  }
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      await dropDatabase();
    },
  };
}
