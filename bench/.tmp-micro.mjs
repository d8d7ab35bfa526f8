const { SearchIndexBuilder } = await import('../apps/server/dist/modules/teachers/search-index.js');
let st = 7; const rnd = () => ((st = (Math.imul(st, 1103515245) + 12345) >>> 0) / 2 ** 32);
const b = new SearchIndexBuilder();
const first = Array.from({length: 40}, (_, i) => 'f' + i), last = Array.from({length: 36}, (_, i) => 'l' + i);
for (let i = 0; i < 100000; i++) {
  const f = first[Math.floor(rnd()*40)], l = last[Math.floor(rnd()*36)];
  b.add({ id: 't' + String(i).padStart(6, '0'), name: f + ' ' + l, languages: [['English','Arabic','French','Spanish','German','Japanese'][Math.floor(rnd()*6)]], levels: ['A1'], price: 10 + Math.floor(rnd()*40), rating: 4 + Math.floor(rnd()*10)/10, lessons: Math.floor(rnd()*2000),
    lexemes: [f, l, rnd() < 0.36 ? 'pronunciation' : 'x', rnd() < 0.04 ? 'rare' : 'y'] });
}
const idx = b.build();
const names = [{ name: 'f3 l1', score: 1 }, ...Array.from({length: 35}, (_, i) => ({ name: `f3 l${i+1}`, score: 0.7 }))];
const any = { min: -Infinity, max: Infinity };
const cases = [
  ['name f3 rating', [{ lexeme: 'f3', prefix: true }], names, any, { column: 'rating', direction: 'desc' }, { value: Infinity, id: '' }],
  ['rare rating', [{ lexeme: 'rare', prefix: false }], [], any, { column: 'rating', direction: 'desc' }, { value: Infinity, id: '' }],
  ['pron Arabic price', [{ lexeme: 'pronunciation', prefix: false }], [], { ...any, language: 'Arabic' }, { column: 'price_per_hour', direction: 'asc' }, { value: -Infinity, id: '' }],
  ['relevance rest', [{ lexeme: 'f3', prefix: true }], names, any, { column: 'score', direction: 'desc' }, { value: 0, id: '' }],
];
for (const [label, terms, nm, f, order, after] of cases) {
  for (let i = 0; i < 200; i++) idx.page(terms, nm, f, order, after, 13);
  const t = performance.now(); const N = 2000;
  for (let i = 0; i < N; i++) idx.page(terms, nm, f, order, after, 13);
  const t2 = performance.now();
  for (let i = 0; i < N; i++) idx.counts(terms, nm, f, true);
  const t3 = performance.now();
  for (let i = 0; i < N; i++) idx.namePage(nm, f, null, 14);
  const t4 = performance.now();
  console.log(label, 'page µs', ((t2 - t) / N * 1000).toFixed(1), 'counts µs', ((t3 - t2) / N * 1000).toFixed(1), 'namePage µs', ((t4 - t3) / N * 1000).toFixed(1), 'n', idx.counts(terms, nm, f, false).total);
}
