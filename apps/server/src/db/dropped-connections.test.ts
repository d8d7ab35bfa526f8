import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { BookingCreated, SlotsResponse } from '@learnlingo/contract';
import { inArray, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../catalogue/index.js';
import { createTestApp, nextIp, type TestApp } from '../test/app.js';
import { testEngine } from '../test/db.js';
import { openDatabase, type Database } from './client.js';
import { isDatabaseUnavailable } from '../plugins/errors.js';
import { booking } from './schema.js';

/*
 * Issue 27: PostgreSQL drops the server's connections (a restart, a failover, a pooler
 * reset) while bookings are being written and the catalogue read. The process must live on,
 * the requests caught in it fail with 503 + Retry-After (nothing else), the app answers again
 * within seconds, and no booking that was acknowledged is missing. postgres.js 3.4.9 threw
 * an uncaught TypeError from its connection code here (decision 101).
 */

const TEACHERS = 40;
const POOL_SIZE = 4;
const KILLS = 4;
const KILL_EVERY_MS = 600;
/** how long after the last kill the app must answer 2xx again */
const RECOVERY_MS = 3000;

interface Outcome {
  kind: 'book' | 'read';
  /** 0: no answer within HUNG_MS */
  status: number;
  retryAfter: string | undefined;
  started: number;
  at: number;
}

const ok = (o: Outcome) => o.status >= 200 && o.status < 300;

/** A request's answer, or null when none came within HUNG_MS: a request must not hang on a dead connection. */
const HUNG_MS = 5000;
async function answer(request: Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse | null> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), HUNG_MS);
  });
  try {
    return await Promise.race([request, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The log, as lines, to look for personal data in. */
function logCollector() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe.skipIf(testEngine !== 'postgres')(
  'PostgreSQL terminating the server connections (PostgreSQL only: PGlite runs in-process and has no connections to drop)',
  () => {
    let t: TestApp;
    let admin: Database;
    let dbName: string;
    const log = logCollector();
    const uncaught: unknown[] = [];
    /** what the pool reported through Database.onConnectionError (server.ts logs these) */
    const lost: Error[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);

    beforeAll(async () => {
      process.on('uncaughtException', onUncaught);
      process.on('unhandledRejection', onUncaught);
      t = await createTestApp({
        seed: TEACHERS,
        poolSize: POOL_SIZE,
        logStream: log.stream,
        // every list request reaches the database; every hour of every day is bookable
        env: { CATALOGUE_CACHE_ENTRIES: '0', SCHOOL_TIME_ZONE: 'UTC', SCHOOL_HOURS: 'Mon-Sun 00:00-24:00' },
      });
      t.db.onConnectionError?.((error) => lost.push(error));
      [{ name: dbName }] = (await t.db.rows<{ name: string }>(sql`select current_database() as name`)) as [{ name: string }];
      // the terminating session lives in the admin database, so it never terminates itself
      admin = await openDatabase({ engine: 'postgres', url: process.env.TEST_DATABASE_URL as string, max: 1 });
    });
    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      process.off('unhandledRejection', onUncaught);
      await admin?.close();
      await t?.close();
    });

    /** Terminates every backend of the app's database; returns how many it terminated. */
    async function terminateBackends(): Promise<number> {
      const [row] = await admin.statement<{ terminated: number }>(
        `select count(*) filter (where pg_terminate_backend(pid))::int as terminated
           from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [dbName],
      );
      return row?.terminated ?? 0;
    }

    /** How many transactions can hold a connection at once (within 3 s): POOL_SIZE unless one leaked. */
    async function connectionsHeldAtOnce(): Promise<number> {
      let inside = 0;
      let openBarrier = () => {};
      const barrier = new Promise<void>((resolve) => (openBarrier = resolve));
      const holders = Array.from({ length: POOL_SIZE }, () =>
        t.db.orm.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          inside += 1;
          if (inside === POOL_SIZE) openBarrier();
          await barrier;
        }),
      );
      await Promise.race([barrier, new Promise((resolve) => setTimeout(resolve, 3000))]);
      const held = inside;
      openBarrier();
      await Promise.all(holders);
      return held;
    }

    it('keeps the process alive, answers 503 + Retry-After meanwhile, recovers, and loses no acknowledged booking', async () => {
      // distinct (teacher, start) pairs: no booking of the run is refused as a taken slot
      const pairs: { teacherId: string; start: string }[] = [];
      for (let n = 1; n <= TEACHERS; n += 1) {
        const teacherId = generatedTeacherId(n);
        const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots` });
        expect(res.statusCode).toBe(200);
        for (const start of res.json<SlotsResponse>().slots) pairs.push({ teacherId, start });
      }
      expect(pairs.length).toBeGreaterThan(2000);

      const outcomes: Outcome[] = [];
      const acknowledged: string[] = [];
      let stop = false;
      let booked = 0;
      const record = (kind: Outcome['kind'], started: number, res: LightMyRequestResponse | null) => {
        const retryAfter = res?.headers['retry-after'];
        outcomes.push({ kind, status: res?.statusCode ?? 0, retryAfter: retryAfter === undefined ? undefined : String(retryAfter), started, at: Date.now() });
      };

      const book = async () => {
        const pair = pairs[booked];
        if (!pair) throw new Error('ran out of free slots: raise TEACHERS');
        booked += 1;
        const started = Date.now();
        const res = await answer(
          t.app.inject({
            method: 'POST',
            url: '/api/bookings',
            remoteAddress: nextIp(),
            payload: {
              ...pair,
              reason: 'Career and business',
              fullName: 'Outage Learner',
              email: `outage-${booked}@example.com`,
              phone: '+44 (20) 7946-0958',
            },
          }),
        );
        record('book', started, res);
        if (res?.statusCode === 201) acknowledged.push(res.json<BookingCreated>().id);
      };
      const read = async (n: number) => {
        const id = generatedTeacherId((n % TEACHERS) + 1);
        const url = n % 3 === 0 ? `/api/teachers/${id}` : n % 3 === 1 ? `/api/teachers?sort=price-asc&price_max=${20 + (n % 30)}` : `/api/teachers/${id}/slots`;
        const started = Date.now();
        record('read', started, await answer(t.app.inject({ method: 'GET', url })));
      };
      const worker = async (which: number) => {
        for (let n = which; !stop; n += 1) await (which % 2 === 0 ? book() : read(n));
      };

      const workers = Array.from({ length: 6 }, (_, i) => worker(i));
      const terminated: number[] = [];
      let lastKill = 0;
      for (let k = 0; k < KILLS; k += 1) {
        await new Promise((r) => setTimeout(r, KILL_EVERY_MS));
        terminated.push(await terminateBackends());
        lastKill = Date.now();
      }
      await new Promise((r) => setTimeout(r, RECOVERY_MS));
      stop = true;
      await Promise.all(workers);

      // every kill found the app's connections (the test did disturb something)
      expect(terminated.every((n) => n > 0), `backends terminated per kill: ${terminated.join(', ')}`).toBe(true);
      expect(uncaught).toEqual([]);
      // the connections that failed outside a query were reported, as connection errors
      expect(lost.length).toBeGreaterThan(0);
      expect(lost.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);

      const statuses = new Map<number, number>();
      for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
      const summary = JSON.stringify(Object.fromEntries(statuses));
      const failures = outcomes.filter((o) => !ok(o));
      // only 503s (no 500, no request left hanging), each telling the client when to come back
      expect(failures.filter((o) => o.status !== 503), summary).toEqual([]);
      expect(failures.filter((o) => o.retryAfter === undefined || !/^\d+$/.test(o.retryAfter))).toEqual([]);

      // 2xx again within seconds of the last kill, for the writes and the reads alike
      for (const kind of ['book', 'read'] as const) {
        const after = outcomes.filter((o) => o.kind === kind && o.started > lastKill);
        const firstOk = after.find(ok);
        expect(firstOk, `${kind}: no 2xx after the last kill (${summary})`).toBeDefined();
        expect(firstOk!.at - lastKill).toBeLessThan(RECOVERY_MS);
        // and once one has succeeded, the ones begun later succeed too
        expect(after.filter((o) => o.started > firstOk!.at && !ok(o)), summary).toEqual([]);
      }

      // every acknowledged booking is in the table
      expect(acknowledged.length).toBeGreaterThan(KILLS);
      const stored = await t.db.orm.select({ id: booking.id }).from(booking).where(inArray(booking.id, acknowledged));
      expect(stored.length).toBe(acknowledged.length);

      // no connection leaked from the pool
      expect(await connectionsHeldAtOnce()).toBe(POOL_SIZE);

      // the process and its database pool are healthy
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);

      // the log holds none of the bookings' personal data
      expect(log.lines.filter((line) => /outage-\d+@example\.com|Outage Learner|7946-0958/.test(line))).toEqual([]);
    }, 30_000);

    it('releases a connection whose transaction could not even begin (drizzle-orm #6241: it leaked from the pool)', async () => {
      const lostBefore = lost.length;
      // every connection of the pool open and idle
      await Promise.all(Array.from({ length: POOL_SIZE }, () => t.db.statement('select pg_sleep(0.05)', [])));
      // Another process terminates them and waits until they are gone, while this one is
      // blocked (spawnSync): their sockets' end is not read yet, so the pool hands the dead
      // connections out as idle ones and each transaction's BEGIN goes to one of them.
      const killer = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { default: pg } = await import(process.argv[1]);
           const c = new pg.Client(process.argv[2]);
           await c.connect();
           const q = (text) => c.query(text, [process.argv[3]]);
           await q('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1');
           while ((await q('select count(*)::int as n from pg_stat_activity where datname = $1')).rows[0].n > 0) await new Promise((r) => setTimeout(r, 20));
           await c.end();`,
          pathToFileURL(createRequire(import.meta.url).resolve('pg')).href,
          process.env.TEST_DATABASE_URL as string,
          dbName,
        ],
        { encoding: 'utf8', timeout: 10_000 },
      );
      expect(killer.status, killer.stderr).toBe(0);
      const begun = await Promise.allSettled(Array.from({ length: POOL_SIZE }, () => t.db.orm.transaction((tx) => tx.execute(sql`select 1`))));
      expect(begun.map((r) => r.status)).toContain('rejected');
      expect(await connectionsHeldAtOnce()).toBe(POOL_SIZE);
      expect(uncaught).toEqual([]);
      expect(lost.length).toBeGreaterThan(lostBefore);
    });
  },
);
