#!/usr/bin/env node
/**
 * First-load weight of `/`: the entry script that dist/index.html loads, its
 * <link rel="modulepreload"> chunks and its stylesheets, each gzipped at level 9.
 * Also shows what `/` fetches right after (the lazy home route, the toaster and their static
 * imports, from Vite's manifest), so the split is visible, not hidden.
 *
 *   node bench/page-weight.mjs            # build apps/web, then measure
 *   node bench/page-weight.mjs --no-build # measure the existing apps/web/dist
 *   node bench/page-weight.mjs --budget 100   # exit 1 when first-load JS > 100 kB (1 kB = 1000 bytes)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'apps/web/dist');
const args = process.argv.slice(2);
const budgetIndex = args.indexOf('--budget');
const budgetKb = budgetIndex >= 0 ? Number(args[budgetIndex + 1]) : undefined;
const HOME_SOURCE = 'src/app/pages/home-page.tsx';
/** Lazy chunks that `/` requests as soon as the shell mounts. */
const LAZY_AT_START = [HOME_SOURCE, 'src/app/components/app-toaster.tsx'];

if (!args.includes('--no-build') || !existsSync(path.join(dist, 'index.html'))) {
  console.log('building apps/web …');
  execFileSync('npm', ['run', 'build', '-w', '@learnlingo/web', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const attr = (tag, name) => tag.match(new RegExp(`\\s${name}=["']([^"']+)["']`))?.[1];
const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];

/** @type {{ file: string, kind: string }[]} */
const firstLoad = [];
for (const tag of tags) {
  // the entry chunk may be named again as a modulepreload (when lazy chunks import from it): count it once
  if (firstLoad.some((f) => f.file === (attr(tag, 'src') ?? attr(tag, 'href')))) continue;
  if (tag.startsWith('<script') && attr(tag, 'type') === 'module' && attr(tag, 'src')) {
    firstLoad.push({ file: attr(tag, 'src'), kind: 'entry' });
  } else if (tag.startsWith('<link') && attr(tag, 'rel') === 'modulepreload') {
    firstLoad.push({ file: attr(tag, 'href'), kind: 'modulepreload' });
  } else if (tag.startsWith('<link') && attr(tag, 'rel') === 'stylesheet') {
    firstLoad.push({ file: attr(tag, 'href'), kind: 'stylesheet' });
  }
}

const sizeOf = (file) => {
  const buffer = readFileSync(path.join(dist, file.replace(/^\//, '')));
  return { raw: buffer.length, gzip: gzipSync(buffer, { level: 9 }).length };
};
const kb = (bytes) => (bytes / 1000).toFixed(1).padStart(7);
const isJs = (file) => file.endsWith('.js');

function printTable(title, rows) {
  console.log(`\n${title}`);
  console.log(`${'kind'.padEnd(14)} ${'raw kB'.padStart(7)} ${'gzip kB'.padStart(7)}  file`);
  for (const row of rows) console.log(`${row.kind.padEnd(14)} ${kb(row.raw)} ${kb(row.gzip)}  ${row.file}`);
  const js = rows.filter((r) => isJs(r.file)).reduce((sum, r) => sum + r.gzip, 0);
  const css = rows.filter((r) => !isJs(r.file)).reduce((sum, r) => sum + r.gzip, 0);
  console.log(`${'total JS'.padEnd(14)} ${''.padStart(7)} ${kb(js)}`);
  console.log(`${'total CSS'.padEnd(14)} ${''.padStart(7)} ${kb(css)}`);
  return { js, css };
}

const firstRows = firstLoad.map((item) => ({ ...item, ...sizeOf(item.file) }));
const first = printTable('First load of / (dist/index.html: entry + modulepreloads + stylesheets), gzip -9', firstRows);

// The lazy home route: its chunk and static imports not already loaded, from the manifest.
const manifestPath = path.join(dist, '.vite/manifest.json');
let after = { js: 0, css: 0 };
if (existsSync(manifestPath)) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const loaded = new Set(firstLoad.map((item) => item.file.replace(/^\//, '')));
  const rows = [];
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || loaded.has(chunk.file)) return;
    loaded.add(chunk.file);
    rows.push({ file: `/${chunk.file}`, kind: LAZY_AT_START.includes(key) ? 'lazy' : 'its import', ...sizeOf(chunk.file) });
    for (const css of chunk.css ?? []) {
      if (loaded.has(css)) continue;
      loaded.add(css);
      rows.push({ file: `/${css}`, kind: 'route css', ...sizeOf(css) });
    }
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of LAZY_AT_START) visit(key);
  if (rows.length > 0) after = printTable('Then, once the shell runs: the lazy home route and toaster (not counted above)', rows);
} else {
  console.log('\n(no dist/.vite/manifest.json: enable build.manifest to see the lazy home route)');
}

console.log(`\nFirst-load JS for /: ${(first.js / 1000).toFixed(1)} kB gzip (CSS ${(first.css / 1000).toFixed(1)} kB)`);
console.log(`Everything / needs to show the home page: ${((first.js + after.js) / 1000).toFixed(1)} kB JS, ${((first.css + after.css) / 1000).toFixed(1)} kB CSS`);
if (budgetKb !== undefined) {
  const ok = first.js / 1000 <= budgetKb;
  console.log(`Budget ${budgetKb} kB: ${ok ? 'within' : 'OVER'}`);
  if (!ok) process.exitCode = 1;
}
