#!/usr/bin/env node
// Page speed as a new user meets it (issue 9): Lighthouse, mobile preset (its default config:
// a mid-range phone, simulated slow 4G and CPU throttling), in Debian's Chromium, against `/`,
// `/teachers` and one teacher's page of the built app, which this script starts on 127.0.0.1
// with the real 30-teacher catalogue (../shared/data/teachers.json) imported into a
// temporary DATA_DIR. Each page runs `--runs` times (default 3), each in a fresh browser
// profile; it prints each metric's median: the performance score, FCP, LCP, CLS and TBT.
// Nothing is downloaded: no browser, no fonts from elsewhere.
//
// Usage: node bench/page-speed.mjs [--runs 3] [--port N (default: a free one)] [--no-build] [--chromium /usr/bin/chromium]
//        [--catalogue ../shared/data/teachers.json] [--page /teachers (one page only; /teachers/:id for the teacher's)]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { arg, buildUnlessNoBuild, lighthouseAuditWithRetry, median, root, startCatalogueServer } from './lib.mjs';

const RUNS = Number(arg('runs', 3));
const PORT = arg('port', undefined);
const CHROMIUM = arg('chromium', '/usr/bin/chromium');
const CATALOGUE = path.resolve(root, arg('catalogue', '../shared/data/teachers.json'));

buildUnlessNoBuild();
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (--chromium PATH)`);

const server = await startCatalogueServer(CATALOGUE, PORT ? Number(PORT) : undefined);
try {
  const { teacherId } = server;
  const only = arg('page', '');
  const pages = server.pages.filter((page) => !only || page === only.replace(':id', teacherId));

  const rows = [];
  const runs = {};
  const loadBefore = os.loadavg()[0];
  let version = '';
  for (const page of pages) {
    runs[page] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const r = await lighthouseAuditWithRetry(server.base + page, CHROMIUM);
      version = r.lighthouse;
      runs[page].push(r);
      console.log(
        `${page} run ${run}: score ${r.score}, FCP ${Math.round(r.fcp)} ms, LCP ${Math.round(r.lcp)} ms, CLS ${r.cls.toFixed(3)}, TBT ${Math.round(r.tbt)} ms — LCP ${r.lcpElement.slice(0, 120)}`,
      );
    }
    const of = (key) => median(runs[page].map((r) => r[key]));
    rows.push({
      page,
      score: of('score'),
      'FCP ms': Math.round(of('fcp')),
      'LCP ms': Math.round(of('lcp')),
      CLS: Number(of('cls').toFixed(3)),
      'TBT ms': Math.round(of('tbt')),
    });
  }
  // Lighthouse simulates the phone's CPU by scaling what it measures here: a busy machine
  // (load average above its core count) inflates TBT and LCP.
  const load = `load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
  console.log(`\nLighthouse ${version}, mobile preset, median of ${RUNS}, ${CHROMIUM}, the catalogue ${path.relative(root, CATALOGUE)}, ${load}`);
  console.table(rows);
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const out = path.join(root, 'bench/results', `page-speed-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify({ node: process.version, lighthouse: version, runs: RUNS, load, rows, each: runs }, null, 2));
  console.log(`written ${path.relative(root, out)}`);
} finally {
  await server.stop();
}
