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
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { arg, freePort, root, startServer } from './lib.mjs';

const RUNS = Number(arg('runs', 3));
const PORT = arg('port', undefined);
const CHROMIUM = arg('chromium', '/usr/bin/chromium');
const CATALOGUE = path.resolve(root, arg('catalogue', '../shared/data/teachers.json'));
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!process.argv.includes('--no-build')) {
  console.log('building …');
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('build failed');
}
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (--chromium PATH)`);

/** Chromium on a fresh profile with a DevTools port of its choosing; resolves to that port. */
async function launchChromium() {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'learnlingo-lh-profile-'));
  const child = spawn(CHROMIUM, [...CHROMIUM_FLAGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], {
    stdio: 'ignore',
  });
  const portFile = path.join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 30_000;
  let port = 0;
  while (!port) {
    if (child.exitCode !== null) throw new Error(`Chromium exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port in 30 s');
    if (existsSync(portFile)) port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
    if (!port) await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    async close() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      // (Chromium's helpers may still be writing into the profile for a moment after it exits)
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** One Lighthouse run of `url` (default config = mobile) in its own browser. */
async function audit(url) {
  const browser = await launchChromium();
  try {
    const result = await lighthouse(url, { port: browser.port, hostname: '127.0.0.1', output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`no Lighthouse result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const value = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      cls: value('cumulative-layout-shift'),
      tbt: value('total-blocking-time'),
      // what the largest paint was: the element, and the request it waited for, if any
      lcpElement: lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
      lighthouse: lhr.lighthouseVersion,
    };
  } finally {
    await browser.close();
  }
}

/**
 * Lighthouse sometimes loses its trace on a busy machine (NO_NAVSTART, NO_FCP): such a run
 * measured nothing, so it is run again (twice at most) and said so.
 */
async function auditWithRetry(url) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await audit(url);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`${error.message.split('\n')[0]} — run again`);
    }
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'learnlingo-page-speed-'));
const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
let server;
try {
  const imported = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/import.js'), CATALOGUE], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env },
  });
  if (imported.status !== 0) throw new Error(`import of ${CATALOGUE} failed (${imported.status})`);
  server = await startServer(env, PORT ? Number(PORT) : await freePort());
  const first = await (await fetch(`${server.base}/api/teachers?limit=1`)).json();
  const teacherId = first.items[0]?.id;
  if (!teacherId) throw new Error('the catalogue is empty');
  const only = arg('page', '');
  const pages = ['/', '/teachers', `/teachers/${encodeURIComponent(teacherId)}`].filter((page) => !only || page === only.replace(':id', teacherId));

  const rows = [];
  const runs = {};
  const loadBefore = os.loadavg()[0];
  let version = '';
  for (const page of pages) {
    runs[page] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const r = await auditWithRetry(server.base + page);
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
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
