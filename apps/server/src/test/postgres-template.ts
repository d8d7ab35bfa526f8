import type { TestProject } from 'vitest/node';
import { createPostgresDatabase } from './postgres-database.js';

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
 * never share it; it is dropped with the run. Without a server (or TEST_DATABASE_URL) nothing
 * is prepared: each file's createTestDatabase says why, and fails under CI.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return async () => {};
  let template;
  try {
    template = await createPostgresDatabase(adminUrl, { prefix: 'll_template', poolSize: 1 });
  } catch {
    return async () => {};
  }
  // a template takes no connections while it is copied
  await template.db.close();
  project.provide('postgresTemplate', new URL(template.url).pathname.slice(1));
  return template.drop;
}
