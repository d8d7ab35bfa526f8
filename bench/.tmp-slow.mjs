import { postgresEnv, startServer } from './lib.mjs';
const env = process.env.PGLITE ? { DATA_DIR: new URL('./.data/pglite-100000', import.meta.url).pathname, DATABASE_URL: '' } : await postgresEnv('ll_bench_100000');
const s = await startServer({ ...env, CATALOGUE_CACHE_ENTRIES: '0' }, 3977);
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
    paths.push({ path, page });
    if (!body.nextCursor) break; query.set('cursor', body.nextCursor);
  }
}
const out = [];
for (const p of paths) {
  const t = [];
  for (let i = 0; i < 5; i++) { const a = performance.now(); await (await fetch(s.base + p.path)).arrayBuffer(); t.push(performance.now() - a); }
  t.sort((a, b) => a - b);
  out.push({ ms: +t[2].toFixed(2), page: p.page, path: decodeURIComponent(p.path.replace(/&cursor=.*/, '')) });
}
out.sort((a, b) => b.ms - a.ms);
console.table(out.slice(0, 30));
const byPage = [0,1,2].map(pg => { const xs = out.filter(o => o.page === pg).map(o=>o.ms); return { page: pg, n: xs.length, sum: xs.reduce((a,b)=>a+b,0).toFixed(0) }; });
console.table(byPage);
await s.stop();
