import { postgresEnv, startServer, loadRun } from './lib.mjs';
const env = await postgresEnv('ll_bench_100000');
const s = await startServer({ ...env, CATALOGUE_CACHE_ENTRIES: '0' }, 3978);
const SEARCHES = ['chloe', 'schmit', 'muller', 'garcia', 'kovalenko', 'tanaka', 'olivia', 'joao', 'lea dubois', 'mei wang',
  'pronunciation', 'grammar', 'business', 'exam preparation', 'children', 'conversation', 'travel', 'accent',
  'spanish grammar', 'japanese', 'homework', 'chlo', 'shevchenko', 'nowak'];
const facets = await (await fetch(`${s.base}/api/teachers/facets`)).json();
const paths = [];
for (const q of SEARCHES) for (const sort of ['', 'price-asc', 'rating']) for (const filter of ['', `language=${facets.languages[0]}`, `price_max=${facets.prices[4] ?? ''}`]) {
  const query = new URLSearchParams(filter); query.set('q', q); if (sort) query.set('sort', sort);
  for (let page = 0; page < 3; page++) {
    const path = `/api/teachers?${query}`;
    const res = await fetch(s.base + path); const body = await res.json();
    paths.push(path);
    if (!body.nextCursor) break; query.set('cursor', body.nextCursor);
  }
}
const r = await loadRun(s, 'searches', paths, { connections: 20, duration: Number(process.env.DUR ?? 10) });
console.log(r);
await s.stop();
