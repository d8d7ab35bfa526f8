#!/usr/bin/env node
// What the first use of an Intl formatter costs a page's main thread (issue 28): a fresh
// browser context each run (a new renderer, ICU's data not loaded yet), at CPU ×1 and ×4
// (DevTools' Emulation.setCPUThrottlingRate), in Debian's Chromium on about:blank — no server.
// Printed per constructor: the first construction's median and range over --runs, with the
// hand-written equivalents the app uses instead (lib/english-number.ts, lib/english-list.ts)
// and the load average beside.
// Usage: node bench/intl-first-use.mjs [--runs 7] [--chromium /usr/bin/chromium]
import { existsSync } from 'node:fs';
import os from 'node:os';
import { chromium } from 'playwright-core';
import { arg, CHROMIUM_FLAGS, median } from './lib.mjs';

const RUNS = Number(arg('runs', 7));
const CHROMIUM = arg('chromium', '/usr/bin/chromium');
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (--chromium PATH)`);

const CASES = {
  "new Intl.NumberFormat('en-US')": () => new Intl.NumberFormat('en-US').format(12345),
  "new Intl.ListFormat('en')": () => new Intl.ListFormat('en').format(['French', 'German', 'Spanish']),
  "new Intl.DateTimeFormat('en-GB', { timeZone })": () => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Kyiv' }).format(0),
  'hand-written grouping (englishNumber)': () => {
    const digits = '12345';
    let grouped = '';
    for (let i = 0; i < digits.length; i += 1) grouped += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i];
    return grouped;
  },
};

const load = () => os.loadavg().map((n) => n.toFixed(1)).join(' / ');
console.log(`machine: ${os.cpus().length} CPUs, load average (1/5/15 min) ${load()} at start`);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless=new') });
const rows = [];
for (const rate of [1, 4]) {
  for (const [name, run] of Object.entries(CASES)) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      times.push(
        await page.evaluate(`(() => { const start = performance.now(); (${run.toString()})(); return performance.now() - start; })()`),
      );
      await context.close();
    }
    times.sort((a, b) => a - b);
    rows.push({ CPU: `×${rate}`, first: name, 'median ms': median(times).toFixed(1), 'min–max ms': `${times[0].toFixed(1)}–${times.at(-1).toFixed(1)}` });
  }
}
await browser.close();
console.table(rows);
console.log(`load average at end ${load()}; Chromium ${browser.version()}`);
