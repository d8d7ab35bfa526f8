#!/usr/bin/env node
// A teacher's own hours → slots (issue 25, decision 116), in-process (no port at all):
//  1. the computation alone: offeredStarts for --count generated teachers over 14 days, each with
//     their generated zone and weekly hours, a three-week holiday, two extra-hours dates, the
//     school's closures and a few booked lessons;
//  2. GET /api/teachers/:id/slots for each of them through app.inject() on a fresh database
//     (PGlite in memory; PostgreSQL too when reachable) holding that time off, those extra hours and
//     those lessons: the availability reads, the booked-starts read and the computation.
// Prints ms per teacher and the load average (the machine is shared: read the figures with it).
// Needs the server's build: `npx tsc -b packages/contract apps/server` (or `npm run build`).
// Usage: node bench/slots.mjs [--count 1000] [--engine pglite|postgres]
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { arg, freshPostgres, pgReachable, root } from './lib.mjs';

const COUNT = Number(arg('count', 1000));
const ONLY = arg('engine', undefined);
const dist = (p) => pathToFileURL(path.join(root, 'apps/server/dist', p)).href;
if (!existsSync(path.join(root, 'apps/server/dist/app.js'))) {
  console.error('apps/server/dist is missing: run `npx tsc -b packages/contract apps/server` first');
  process.exit(1);
}
const { buildApp } = await import(dist('app.js'));
const { loadEnv } = await import(dist('config/env.js'));
const { openDatabase } = await import(dist('db/client.js'));
const { seedGenerated, generateAvailability } = await import(dist('catalogue/index.js'));
const schema = await import(dist('db/schema.js'));
const { bookableWindow, closureInterval, offeredStarts } = await import(dist('modules/booking/schedule.js'));

/** A fixed clock: Monday 19 October 2026, 09:00 UTC — Europe (25 Oct) and North America (1 Nov) change clocks inside the 14 days. */
const NOW = Date.parse('2026-10-19T09:00:00Z');
const teacherId = (n) => `t${String(n).padStart(6, '0')}`;
const day = (offsetDays) => new Date(NOW + offsetDays * 86_400_000).toISOString().slice(0, 10);
const load = () => os.loadavg().map((v) => v.toFixed(2)).join(' ');
const ms = (v) => v.toFixed(3);

/** Each teacher's extra data: a 3-week holiday starting somewhere in the fortnight, two extra-hours dates. */
function extrasOf(n) {
  const start = n % 14;
  return {
    timeOff: [{ startsOn: day(start), endsOn: day(start + 20) }],
    extraHours: [
      { on: day((n + 3) % 14), fromHour: 18, toHour: 21 },
      { on: day((n + 9) % 14), fromHour: 6, toHour: 8 },
    ],
  };
}
const SCHOOL = { timeZone: 'Europe/Kyiv', hours: Array.from({ length: 7 }, (_, d) => (d < 5 ? [[9, 18]] : [])) };
const CLOSURES = [{ startsOn: day(6), endsOn: day(6) }];

function computeOnly() {
  const closed = CLOSURES.map((c) => closureInterval(c, SCHOOL.timeZone));
  const window = bookableWindow(NOW);
  const teachers = Array.from({ length: COUNT }, (_, i) => {
    const g = generateAvailability(i + 1);
    return { schedule: { timeZone: g.timeZone, hours: g.weeklyHours }, noticeHours: 12, horizonDays: 14, ...extrasOf(i + 1) };
  });
  // a first pass warms the zone formatters and the offset cache, as a running server has them
  for (const t of teachers) offeredStarts(t, window.from, window.to, closed, []);
  let slots = 0;
  const started = performance.now();
  for (const t of teachers) slots += offeredStarts(t, window.from, window.to, closed, [window.from + 86_400_000]).length;
  const took = performance.now() - started;
  return { took, slots };
}

async function throughApi(engine) {
  const pgDb = engine === 'postgres' ? await freshPostgres('ll_bench_slots') : null;
  const db = await openDatabase(engine === 'postgres' ? { engine: 'postgres', url: pgDb.url, max: 4 } : { engine: 'pglite', dataDir: 'memory' });
  try {
    await db.migrate();
    await seedGenerated(db, COUNT);
    const timeOff = [];
    const extra = [];
    const lessons = [];
    for (let n = 1; n <= COUNT; n++) {
      const e = extrasOf(n);
      for (const t of e.timeOff) timeOff.push({ id: randomUUID(), teacherId: teacherId(n), ...t });
      for (const x of e.extraHours) extra.push({ id: randomUUID(), teacherId: teacherId(n), onDate: x.on, fromHour: x.fromHour, toHour: x.toHour });
    }
    for (let i = 0; i < timeOff.length; i += 500) await db.orm.insert(schema.teacherTimeOff).values(timeOff.slice(i, i + 500));
    for (let i = 0; i < extra.length; i += 500) await db.orm.insert(schema.teacherExtraHours).values(extra.slice(i, i + 500));
    await db.orm.insert(schema.schoolClosure).values(CLOSURES.map((c) => ({ id: randomUUID(), ...c })));
    const env = loadEnv({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      DATA_DIR: path.join(os.tmpdir(), 'learnlingo-bench-slots-unused'),
      WEB_DIST: path.join(os.tmpdir(), 'learnlingo-bench-no-web-dist'),
      SCHOOL_TIME_ZONE: SCHOOL.timeZone,
      SCHOOL_HOURS: 'Mon-Fri 09:00-18:00',
    });
    const app = await buildApp({ env, db, mailWorker: false, now: () => NOW, catalogueCacheCheckMs: 0 });
    await app.ready();
    try {
      // a booked lesson for every tenth teacher: its first free start
      for (let n = 1; n <= COUNT; n += 10) {
        const first = (await app.inject({ url: `/api/teachers/${teacherId(n)}/slots` })).json().slots[0];
        if (first) lessons.push({ n, first });
      }
      for (const { n, first } of lessons) {
        await db.orm.insert(schema.booking).values({
          id: randomUUID(),
          teacherId: teacherId(n),
          reason: 'Living abroad',
          fullName: 'Bench Learner',
          email: 'bench@example.com',
          phone: '+380 67 123 4567',
          start: new Date(first),
        });
      }
      // warm-up pass (statement caches, zone formatters), then the timed pass
      for (let n = 1; n <= Math.min(COUNT, 100); n++) await app.inject({ url: `/api/teachers/${teacherId(n)}/slots` });
      let slots = 0;
      let bad = 0;
      const times = [];
      const started = performance.now();
      for (let n = 1; n <= COUNT; n++) {
        const t0 = performance.now();
        const res = await app.inject({ url: `/api/teachers/${teacherId(n)}/slots` });
        times.push(performance.now() - t0);
        if (res.statusCode !== 200) bad += 1;
        else slots += res.json().slots.length;
      }
      const took = performance.now() - started;
      times.sort((a, b) => a - b);
      return { took, slots, bad, p50: times[Math.floor(times.length / 2)], p99: times[Math.floor(times.length * 0.99)], lessons: lessons.length };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    await pgDb?.drop();
  }
}

console.log(`slots of ${COUNT} teachers for 14 days (clock ${new Date(NOW).toISOString()}), load average before: ${load()}`);
const c = computeOnly();
console.log(`computation only: ${ms(c.took / COUNT)} ms per teacher (${Math.round(c.took)} ms in all, ${c.slots} starts), load ${load()}`);
const engines = ONLY ? [ONLY] : ['pglite', ...((await pgReachable()) ? ['postgres'] : [])];
for (const engine of engines) {
  const r = await throughApi(engine);
  console.log(
    `[${engine}] GET /api/teachers/:id/slots via inject, one after another: ${ms(r.took / COUNT)} ms per teacher ` +
      `(p50 ${ms(r.p50)}, p99 ${ms(r.p99)}; ${r.slots} starts, ${r.lessons} booked lessons, ${r.bad} non-200), load ${load()}`,
  );
}
