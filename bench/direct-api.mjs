// The CPU of one in-process API read as a server render makes it: the direct entry
// (apps/server/src/plugins/direct-api.ts, issue 29) against Fastify's inject(), on the same app
// and the same URLs (answers already in the API's cache), interleaved A B A B in `--rounds`.
// Needs `npm run build` and the bench's PostgreSQL catalogue (`ll_bench_<count>`, made by
// bench/ssr.mjs); only reads it.
// Usage: node bench/direct-api.mjs [--count 100000] [--calls 3000] [--rounds 4]
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg, loadAverage, postgresEnv, root } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const CALLS = Number(arg('calls', 3000));
const ROUNDS = Number(arg('rounds', 4));

Object.assign(process.env, { NODE_ENV: 'production', LOG_LEVEL: 'warn', ...(await postgresEnv(`ll_bench_${COUNT}`)) });
const dist = (file) => pathToFileURL(path.join(root, 'apps/server/dist', file)).href;
const { buildApp } = await import(dist('app.js'));
const { loadEnv } = await import(dist('config/env.js'));
const { openConfiguredDatabase } = await import(dist('db/open.js'));
const { directApiOf } = await import(dist('plugins/direct-api.js'));

const env = loadEnv();
const opened = await openConfiguredDatabase(env);
const app = await buildApp({ env, db: opened.db, mailWorker: false });
await app.ready();
const direct = directApiOf(app);

const list = await app.inject({ url: '/api/teachers?limit=4&sort=price-asc' });
const id = list.json().items[0].id;
const urls = {
  teacher: `/api/teachers/${id}`,
  reviews: `/api/teachers/${id}/reviews?sort=newest&page=1`,
  list: '/api/teachers?limit=4&sort=price-asc&language=French',
  facets: '/api/teachers/facets?language=French',
};
const ways = {
  inject: (url) => app.inject({ method: 'GET', url, headers: { accept: 'application/json' } }),
  direct: (url) => direct.answer('GET', url),
};
// warm both paths and the API's cache
for (const url of Object.values(urls)) for (let i = 0; i < 200; i += 1) for (const way of Object.values(ways)) await way(url);

const rows = [];
const load = [loadAverage()];
for (let round = 1; round <= ROUNDS; round += 1) {
  const order = round % 2 === 1 ? ['inject', 'direct'] : ['direct', 'inject'];
  for (const [name, url] of Object.entries(urls)) {
    for (const way of order) {
      const started = process.cpuUsage();
      for (let i = 0; i < CALLS; i += 1) await ways[way](url);
      const used = process.cpuUsage(started);
      rows.push({ round, url: name, way, cpuUsPerCall: Math.round(((used.user + used.system) / CALLS) * 10) / 10 });
    }
  }
}
load.push(loadAverage());
console.table(rows);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summary = Object.keys(urls).map((name) => {
  const of = (way) => median(rows.filter((row) => row.url === name && row.way === way).map((row) => row.cpuUsPerCall));
  return { url: name, injectUs: of('inject'), directUs: of('direct'), savedUs: Math.round((of('inject') - of('direct')) * 10) / 10 };
});
console.table(summary);
console.log(JSON.stringify({ calls: CALLS, rounds: ROUNDS, load: load.join('→'), summary }));
await app.close();
await opened.close();
