import { createHash } from 'node:crypto';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { createTableRelationsHelpers, extractTablesRelationalConfig, sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT, type PgTransactionConfig } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres, NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
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
  /**
   * PostgreSQL: called when one of the pool's connections fails outside a query (the server
   * terminated it, a restart, a failover, a reset socket). The pool has already dropped that
   * connection and opens a new one when needed; a query it was running has failed on its own.
   */
  onConnectionError?(listener: (error: Error) => void): void;
  /**
   * PostgreSQL: calls `listener` at each NOTIFY on `channel` (LISTEN on a connection of its
   * own, opened again a second after it fails); resolves, once it listens (or its first
   * attempt failed), to the stop. A notification can be lost while that connection is down:
   * callers poll as well (decision 107).
   */
  listen?(channel: string, listener: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { engine: 'postgres'; url: string; max?: number }
  /**
   * dataDir: DATA_DIR (the database lives in DATA_DIR/pglite), or 'memory' (from: a dump to
   * start from). sharedBuffers: PostgreSQL's shared_buffers (PGlite's default 128MB); PGlite
   * zeroes them at every start, ~0.5 s of this machine's CPU for 128MB: the tests' databases,
   * one per test file and small, start with 16MB in half the time.
   */
  | { engine: 'pglite'; dataDir: string | 'memory'; from?: Blob; sharedBuffers?: `${number}MB` };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.engine === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.max ?? 10,
      application_name: 'learnlingo',
      // Generic plans: the hot statement (the catalogue list, prepared once per connection
      // by Database.statement) takes its filters, cursors and limits as arrays (unnest),
      // which no plan can see into, so planning each execution (~0.25 ms of a ~0.55 ms
      // batch) bought nothing; the app's other parameterised statements are equality
      // lookups. The list's plan is checked by EXPLAIN in list-plan.test.ts.
      // jit off: short OLTP statements; a generic plan's cost estimate can pass
      // jit_above_cost, and compiling then costs milliseconds on a query that runs in a
      // fraction of one. Both are startup parameters: no extra round trip per connection.
      options: '-c plan_cache_mode=force_generic_plan -c jit=off',
      // A database that does not answer (a failover in progress, a dropped route) fails the
      // request after this long instead of holding it; so does a wait for a free connection.
      connectionTimeoutMillis: 10_000,
      // Dead peers are found by TCP keep-alive, not by the next query hanging.
      keepAlive: true,
      idleTimeoutMillis: 60_000,
      // Connections are renewed every half hour (a backend's memory, a failover's new primary).
      maxLifetimeSeconds: 1800,
    });
    // A connection that fails outside a query emits 'error' on its client; the pool listens
    // only while the client is idle (and emits it again on the pool), not while it is checked
    // out between two statements of a transaction (node-postgres #2439, #3202): an unhandled
    // 'error' event, which kills the process. So every client gets a listener of its own,
    // which reports each failure once; the pool's 'error' is then the same error again. The
    // pool drops a failed client (released with _queryable false), and a query it was
    // running rejects on its own.
    let connectionErrorListener: (error: Error) => void = () => {};
    pool.on('connect', (client) => client.on('error', (error) => connectionErrorListener(error)));
    pool.on('error', () => {});
    const orm = drizzlePostgres({ client: pool, schema });
    orm.transaction = pooledTransaction(pool) as typeof orm.transaction;
    let closed = false;
    return {
      orm,
      engine: 'postgres',
      rows: async <T extends Record<string, unknown>>(query: SQL) => (await orm.execute(query)).rows as T[],
      statement: async <T extends Record<string, unknown>>(text: string, params: unknown[]) =>
        (await pool.query<T>({ name: statementName(text), text, values: params, types: STATEMENT_TYPES })).rows,
      migrate: () => migratePostgres(orm, { migrationsFolder }),
      ping: () => ping(orm),
      onConnectionError: (listener) => {
        connectionErrorListener = listener;
      },
      listen: async (channel, listener) => {
        let client: pg.Client | null = null;
        let stopped = false;
        let retry: NodeJS.Timeout | null = null;
        const connect = async () => {
          if (stopped) return;
          const next = new pg.Client({
            connectionString: target.url,
            application_name: 'learnlingo-listen',
            keepAlive: true,
            connectionTimeoutMillis: 10_000,
          });
          client = next;
          const again = () => {
            if (stopped || client !== next) return;
            client = null;
            next.end().catch(() => {});
            retry = setTimeout(() => void connect(), 1000);
            retry.unref();
          };
          next.on('error', again);
          next.on('end', again);
          next.on('notification', () => listener());
          try {
            await next.connect();
            await next.query(`listen "${channel.replace(/"/g, '""')}"`);
          } catch {
            again();
          }
        };
        return connect().then(() => async () => {
          stopped = true;
          if (retry) clearTimeout(retry);
          const last = client;
          client = null;
          await last?.end().catch(() => {});
        });
      },
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }

  // Search uses pg_trgm and unaccent (migration 0005, decision 040): PGlite loads them from its contrib.
  const extensions = { pg_trgm, unaccent };
  const startParams = target.sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${target.sharedBuffers}`] } : {};
  const client =
    target.dataDir === 'memory'
      ? new PGlite({ extensions, ...startParams, ...(target.from ? { loadDataDir: target.from } : {}) })
      : new PGlite(path.join(target.dataDir, 'pglite'), { extensions, ...startParams });
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

const relational = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
const relationalSchema = { fullSchema: schema, schema: relational.tables, tableNamesMap: relational.tableNamesMap };

/**
 * Drizzle's transaction() on a pg Pool, with its connection handling fixed (drizzle-orm
 * 0.45.4; drizzle-orm #6023, #6114, #6241, unmerged): Drizzle runs BEGIN before the
 * try/finally that releases the connection, so a BEGIN on a connection that has just died
 * leaked it from the pool for good (each outage took a few, until every request waited for
 * a connection that never came), and it returned a connection whose ROLLBACK failed to the
 * pool as healthy. Here the connection is always released, and destroyed unless the
 * transaction ended cleanly (committed, or rolled back); the caller gets the original error.
 */
function pooledTransaction(pool: pg.Pool) {
  const dialect = new PgDialect();
  type Tables = typeof relational.tables;
  return async <T>(run: (tx: NodePgTransaction<Schema, Tables>) => Promise<T>, config?: PgTransactionConfig): Promise<T> => {
    const client = await pool.connect();
    const tx = new NodePgTransaction<Schema, Tables>(dialect, new NodePgSession(client, dialect, relationalSchema), relationalSchema);
    let clean = false;
    try {
      await tx.execute(sql`begin`);
      if (config) await tx.setTransaction(config);
      const result = await run(tx);
      await tx.execute(sql`commit`);
      clean = true;
      return result;
    } catch (error) {
      try {
        await tx.execute(sql`rollback`);
        clean = true;
      } catch {
        // the connection is gone (or unusable): destroyed below; the caller gets the first error
      }
      throw error;
    } finally {
      client.release(clean ? undefined : new Error('transaction did not end cleanly'));
    }
  };
}

/** A named statement's name: the same text gets the same name on every connection. */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `ll_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Dates, times and intervals (and their arrays) stay the text PostgreSQL sends, as Drizzle's
 * own queries on node-postgres return them (its execute() does the same) and as postgres.js
 * returned them before decision 101; everything else is pg's default (int8 and numeric as
 * strings, json parsed, arrays as arrays).
 */
const TEXT_TYPES = new Set([1082, 1083, 1114, 1184, 1186, 1182, 1183, 1115, 1185, 1187, 1231]);
const STATEMENT_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    TEXT_TYPES.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

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
