#!/usr/bin/env node
/**
 * Bytes the browser downloads before the first teacher card shows on /teachers, with
 * 30, 10,000 and 100,000 teachers in the database. It must not grow with the catalogue:
 * the page asks the server for one page of 4 teachers (and the filter options), never
 * the whole collection (which would cost ~1.2 KB per teacher).
 *
 *   node bench/first-card-bytes.mjs                  # 30, 10000, 100000
 *   node bench/first-card-bytes.mjs --counts 30,1000 # other sizes
 *   node bench/first-card-bytes.mjs --runs 3         # median of 3 cold loads per size
 *
 * Each size: a fresh DATA_DIR in the temp directory, `seed --count N`, the built server
 * on 127.0.0.1, then cold page loads in Chromium (/usr/bin/chromium or CHROME_PATH) with
 * a new browser context each (no cache). Bytes come from the DevTools protocol: for every
 * response finished before `article` is visible, the encoded (on-the-wire, compressed)
 * body and the transfer size with headers.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureBuilt, root, startServer } from './lib.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const counts = option('--counts', '30,10000,100000').split(',').map(Number);
const runs = Number(option('--runs', '3'));
const executablePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const chromiumArgs = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function seed(dataDir, count) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/seed.js'), '--count', String(count)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DATA_DIR: dataDir },
  });
  if (r.status !== 0) throw new Error(`seed --count ${count} failed (${r.status})`);
  return Date.now() - started;
}

/** One cold load of /teachers: the responses finished before the first card is visible. */
async function measure(browser, base) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const requests = new Map();
  const finished = [];
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    requests.set(requestId, { url: response.url, type, headerBytes: response.encodedDataLength ?? 0 });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const request = requests.get(requestId);
    if (request) finished.push({ ...request, transfer: encodedDataLength, body: Math.max(0, encodedDataLength - request.headerBytes) });
  });
  const started = Date.now();
  await page.goto(`${base}/teachers`);
  await page.locator('article').first().waitFor({ state: 'visible', timeout: 60_000 });
  const ms = Date.now() - started;
  const seen = [...finished]; // only what finished before the card showed
  await context.close();
  const sum = (list, key) => list.reduce((total, r) => total + r[key], 0);
  const api = seen.filter((r) => new URL(r.url).pathname.startsWith('/api/'));
  return {
    ms,
    requests: seen.length,
    transfer: sum(seen, 'transfer'),
    body: sum(seen, 'body'),
    apiBody: sum(api, 'body'),
    api: api.map((r) => `${new URL(r.url).pathname}${new URL(r.url).search} ${r.body} B`),
    all: seen.map((r) => `${r.type.padEnd(10)} ${String(r.body).padStart(7)} B  ${new URL(r.url).pathname}`),
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

ensureBuilt();
const browser = await chromium.launch({ executablePath, args: chromiumArgs });
const rows = [];
try {
  for (const [index, count] of counts.entries()) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `learnlingo-first-card-${count}-`));
    const server = { stop: async () => {} };
    try {
      const seedMs = seed(dataDir, count);
      Object.assign(server, await startServer({ DATA_DIR: dataDir, PUBLIC_ORIGIN: `http://127.0.0.1:${4700 + index}` }, 4700 + index));
      const results = [];
      for (let run = 0; run < runs; run += 1) results.push(await measure(browser, server.base));
      const pick = (key) => median(results.map((r) => r[key]));
      if (args.includes('--verbose')) for (const r of results) console.log(`${count}: ${r.ms} ms\n  ${r.all.join('\n  ')}`);
      rows.push({ count, seedMs, ms: pick('ms'), requests: pick('requests'), transfer: pick('transfer'), body: pick('body'), apiBody: pick('apiBody'), api: results[0].api });
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}

const n = (v) => v.toLocaleString('en-US');
console.log('\nBytes downloaded before the first teacher card is visible on /teachers (cold cache, median of %d loads)\n', runs);
console.log(`${'teachers'.padStart(9)} ${'requests'.padStart(8)} ${'body bytes'.padStart(11)} ${'with headers'.padStart(13)} ${'API body'.padStart(9)} ${'time ms'.padStart(8)}`);
for (const r of rows) {
  console.log(`${n(r.count).padStart(9)} ${String(r.requests).padStart(8)} ${n(r.body).padStart(11)} ${n(r.transfer).padStart(13)} ${n(r.apiBody).padStart(9)} ${String(r.ms).padStart(8)}`);
}
const bodies = rows.map((r) => r.body);
const spread = Math.max(...bodies) - Math.min(...bodies);
console.log(`\nspread between sizes: ${n(spread)} bytes (${((spread / Math.min(...bodies)) * 100).toFixed(2)} %)`);
console.log(`API responses at ${n(rows.at(-1).count)} teachers:\n  ${rows.at(-1).api.join('\n  ')}`);
