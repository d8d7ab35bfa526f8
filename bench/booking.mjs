#!/usr/bin/env node
// Trial-lesson booking benchmark (autocannon, 127.0.0.1 only), on a fresh database per engine:
//  1. GET /api/teachers/:id/slots over distinct teachers (zone arithmetic + the booked-starts read);
//  2. POST /api/bookings, every request a different free slot (insert + unique index + outbox row);
//  3. contention: --racers concurrent POSTs for each of --slots slots — checks that exactly one
//     per slot gets 201 (the others 409 SLOT_TAKEN) and times each round.
// Usage: node bench/booking.mjs [--count 2000] [--duration 10] [--connections 20] [--racers 20] [--slots 20] [--engine pglite|postgres]
import autocannon from 'autocannon';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { arg, benchData, ensureBuilt, PG_ADMIN, pgReachable, postgresEnv, root, seed, startServer } from './lib.mjs';

const COUNT = Number(arg('count', 2000));
const DURATION = Number(arg('duration', 10));
const CONNECTIONS = Number(arg('connections', 20));
const RACERS = Number(arg('racers', 20));
const SLOTS = Number(arg('slots', 20));
const ONLY = arg('engine', undefined);

const teacherId = (n) => `t${String(n).padStart(6, '0')}`;
const form = { reason: 'Living abroad', fullName: 'Bench Learner', email: 'bench@example.com', phone: '+380 67 123 4567' };

async function row(title, result) {
  return {
    title,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Free (teacher, start) pairs from the first teachers' slots, enough for the booking run. */
async function freeSlots(base, wanted) {
  const pairs = [];
  for (let n = 1; n <= COUNT && pairs.length < wanted; n++) {
    const body = await (await fetch(`${base}/api/teachers/${teacherId(n)}/slots`)).json();
    for (const start of body.slots) pairs.push({ teacherId: teacherId(n), start });
  }
  return pairs;
}

async function benchEngine(engine) {
  let env;
  const dataDir = path.join(benchData, `booking-pglite-${COUNT}`);
  if (engine === 'pglite') {
    rmSync(dataDir, { recursive: true, force: true });
    env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  } else {
    env = await postgresEnv(`ll_bench_booking_${COUNT}`, { fresh: true });
  }
  console.log(`\n[${engine}] preparing ${COUNT} teachers…`);
  seed(env, COUNT);
  // mail goes to .eml files under DATA_DIR/outbox (no SMTP_URL): the worker's writes are part of the load.
  // Every request comes from one address and one mailbox: the limits (decision 102) are lifted, and
  // each POST is a visitor's booking — a hold and its one e-mail.
  const limits = { BOOKINGS_PER_ADDRESS_PER_HOUR: '1000000', BOOKINGS_PER_EMAIL_PER_HOUR: '1000000' };
  const server = await startServer({ ...env, ...limits, DATA_DIR: env.DATA_DIR ?? path.join(benchData, `booking-pg-${COUNT}`) }, 3905);
  const rows = [];
  const rounds = [];
  try {
    const slotPaths = Array.from({ length: COUNT }, (_, i) => `/api/teachers/${teacherId(i + 1)}/slots`);
    let i = 0;
    rows.push(
      await row(
        `GET slots, ${COUNT} distinct teachers`,
        await autocannon({
          url: server.base,
          connections: CONNECTIONS,
          duration: DURATION,
          requests: [{ setupRequest: (req) => ({ ...req, path: slotPaths[i++ % slotPaths.length] }) }],
        }),
      ),
    );

    // contention first, on slots nobody else books
    const racePairs = (await freeSlots(server.base, SLOTS)).slice(0, SLOTS);
    for (const pair of racePairs) {
      const started = performance.now();
      const codes = await Promise.all(
        Array.from({ length: RACERS }, (_, r) =>
          fetch(`${server.base}/api/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...form, fullName: `Racer ${r}`, ...pair }),
          }).then((res) => res.status),
        ),
      );
      const won = codes.filter((c) => c === 201).length;
      const taken = codes.filter((c) => c === 409).length;
      rounds.push({ ms: performance.now() - started, won, taken });
      if (won !== 1 || taken !== RACERS - 1) throw new Error(`slot ${pair.teacherId} ${pair.start}: ${won} × 201, ${taken} × 409 (${codes.join(',')})`);
    }
    const ms = rounds.map((r) => r.ms).sort((a, b) => a - b);
    console.log(`[${engine}] contention: ${rounds.length} slots × ${RACERS} concurrent bookings: exactly one 201 each; round p50 ${ms[Math.floor(ms.length / 2)].toFixed(1)} ms, max ${ms.at(-1).toFixed(1)} ms`);

    // every request a different free slot (once they are used up, repeats answer 409: non2xx)
    const pairs = await freeSlots(server.base, 200_000);
    let j = 0;
    rows.push(
      await row(
        `POST bookings, distinct free slots (${pairs.length} available)`,
        await autocannon({
          url: server.base,
          connections: CONNECTIONS,
          duration: DURATION,
          requests: [
            {
              setupRequest: (req) => ({
                ...req,
                method: 'POST',
                path: '/api/bookings',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ ...form, ...pairs[j++ % pairs.length] }),
              }),
            },
          ],
        }),
      ),
    );
  } finally {
    await server.stop();
  }
  console.log(`[${engine}] ${COUNT} teachers, ${CONNECTIONS} connections, ${DURATION}s each`);
  console.table(rows);
  return { engine, count: COUNT, connections: CONNECTIONS, duration: DURATION, racers: RACERS, rows, contention: rounds };
}

ensureBuilt();
const engines = ONLY ? [ONLY] : ['pglite', 'postgres'];
const results = [];
for (const engine of engines) {
  if (engine === 'postgres' && !(await pgReachable())) {
    console.log(`[postgres] not reachable at ${PG_ADMIN}: skipped`);
    continue;
  }
  results.push(await benchEngine(engine));
}
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const out = path.join(root, 'bench/results', `booking-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(out, JSON.stringify({ node: process.version, results }, null, 2));
console.log(`\nwritten ${path.relative(root, out)}`);
