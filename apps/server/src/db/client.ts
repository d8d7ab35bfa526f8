import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { migrationsFolder } from '../config/paths.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** The Drizzle database, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Engine = 'pglite' | 'postgres';

export interface Database {
  readonly orm: Db;
  readonly engine: Engine;
  /** Runs raw SQL and returns its rows (the two drivers shape results differently). */
  rows<T extends Record<string, unknown>>(query: SQL): Promise<T[]>;
  /**
   * Runs a hot statement whose text never varies, with positional parameters ($1…). On
   * PostgreSQL it is a named statement kept per connection, parsed and planned once (its
   * generic plan); Drizzle's execute() would send an unnamed one, parsed and planned anew
   * at every call.
   */
  statement<T extends Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]>;
  migrate(): Promise<void>;
  /** true when the database answers */
  ping(): Promise<boolean>;
  /** the embedded database's files as one tarball (PGlite's dumpDataDir); PostgreSQL has none */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { engine: 'postgres'; url: string; max?: number }
  /** dataDir: DATA_DIR (the database lives in DATA_DIR/pglite), or 'memory' (from: a dump to start from) */
  | { engine: 'pglite'; dataDir: string | 'memory'; from?: Blob };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.engine === 'postgres') {
    const client = postgres(target.url, {
      max: target.max ?? 10,
      onnotice: () => {},
      connection: {
        application_name: 'learnlingo',
        // Generic plans: the hot statement (the catalogue list, prepared once per connection
        // by Database.statement) takes its filters, cursors and limits as arrays (unnest),
        // which no plan can see into, so planning each execution (~0.25 ms of a ~0.55 ms
        // batch) bought nothing; the app's other parameterised statements are equality
        // lookups. The list's plan is checked by EXPLAIN in list-plan.test.ts.
        plan_cache_mode: 'force_generic_plan',
        // Short OLTP statements: a generic plan's cost estimate can pass jit_above_cost,
        // and compiling then costs milliseconds on a query that runs in a fraction of one.
        jit: 'off',
      },
    });
    const orm = drizzlePostgres({ client, schema });
    let closed = false;
    return {
      orm,
      engine: 'postgres',
      rows: async <T extends Record<string, unknown>>(query: SQL) => (await orm.execute(query)) as unknown as T[],
      statement: async <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
        (await client.unsafe(text, params as never[], { prepare: true })) as unknown as T[],
      migrate: () => migratePostgres(orm, { migrationsFolder }),
      ping: () => ping(orm),
      close: async () => {
        if (closed) return;
        closed = true;
        await client.end({ timeout: 5 });
      },
    };
  }

  // Search uses pg_trgm and unaccent (migration 0005, decision 040): PGlite loads them from its contrib.
  const extensions = { pg_trgm, unaccent };
  const client =
    target.dataDir === 'memory'
      ? new PGlite({ extensions, ...(target.from ? { loadDataDir: target.from } : {}) })
      : new PGlite(path.join(target.dataDir, 'pglite'), { extensions });
  await client.waitReady;
  // The same session settings as PostgreSQL's connections (see above).
  await client.exec(`set plan_cache_mode = force_generic_plan; set jit = off;`);
  const orm = drizzlePglite({ client, schema });
  let closed = false;
  return {
    orm,
    engine: 'pglite',
    rows: async <T extends Record<string, unknown>>(query: SQL) => (await orm.execute(query)).rows as T[],
    // PGlite runs one statement at a time in-process, unnamed.
    statement: async <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
      (await client.query<T>(text, params)).rows,
    migrate: () => migratePglite(orm, { migrationsFolder }),
    ping: () => ping(orm),
    dump: () => client.dumpDataDir('none'),
    close: async () => {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}

async function ping(orm: Db): Promise<boolean> {
  try {
    await orm.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** The Postgres error code of a driver error (Drizzle wraps them in `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isForeignKeyViolation = (error: unknown) => pgErrorCode(error) === '23503';
