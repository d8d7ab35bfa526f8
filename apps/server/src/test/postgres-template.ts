import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a migrated, empty database on TEST_DATABASE_URL, which each test file's database is copied from */
    postgresTemplate: string;
  }
}

/**
 * Vitest's global setup of the PostgreSQL project: one migrated database per run, which
 * each test file's database copies (`create database … template …`) instead of running
 * every migration again. Its name is the run's own, so that concurrent runs on one server
 * never share it; it is dropped with the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  // without a server the project's files say why (createTestDatabase): nothing to prepare
  if (!adminUrl) return async () => {};
  const name = `ll_template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  admin.on('error', () => {});
  const drop = async () => {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
  try {
    await admin.connect();
  } catch {
    // unreachable: each file's createTestDatabase reports it (and fails under CI)
    await admin.end().catch(() => {});
    return async () => {};
  }
  try {
    await admin.query(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const db = await openDatabase({ engine: 'postgres', url: url.toString(), max: 1 });
    try {
      await db.migrate();
    } finally {
      await db.close();
    }
    project.provide('postgresTemplate', name);
  } catch (error) {
    await drop().catch(() => {});
    throw error;
  }
  return drop;
}
