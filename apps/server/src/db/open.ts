import type { Env } from '../config/env.js';
import { makeTreePrivate } from '../config/private-files.js';
import { openDatabase, type Database } from './client.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';

export interface OpenedDatabase {
  db: Database;
  /** held while the embedded database is open */
  lock: DataDirLock | null;
  /** closes the database, then releases the lock */
  close(): Promise<void>;
}

/**
 * Opens the configured database for this process and applies pending migrations:
 * PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite in DATA_DIR —
 * after taking DATA_DIR's exclusive lock, which a second process is refused.
 */
export async function openConfiguredDatabase(env: Env, command?: string): Promise<OpenedDatabase> {
  if (env.databaseUrl) {
    const db = await openDatabase({ engine: 'postgres', url: env.databaseUrl, max: env.databasePoolSize });
    try {
      await db.migrate();
    } catch (error) {
      await db.close();
      throw error;
    }
    return { db, lock: null, close: () => db.close() };
  }

  const lock = acquireDataDirLock(env.dataDir, { display: env.dataDirDisplay, command });
  let db: Database | undefined;
  try {
    db = await openDatabase({ engine: 'pglite', dataDir: env.dataDir });
    // PGlite unpacks a new database's files as 0666 whatever the umask: made private here,
    // before anything is written to them (PostgreSQL's own later files follow the umask).
    makeTreePrivate(env.dataDir);
    await db.migrate();
  } catch (error) {
    await db?.close();
    lock.release();
    throw error;
  }
  const opened = db;
  return {
    db: opened,
    lock,
    close: async () => {
      try {
        await opened.close();
      } finally {
        lock.release();
      }
    },
  };
}
