import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('..', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
/** written by every `tsc -b` of the server that emits (npm run build, npm run typecheck) */
const BUILD_INFO = fileURLToPath(new URL('../../tsconfig.tsbuildinfo', import.meta.url));

/** the newest modification time of the server's sources (tests included: they are built too) */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

let checked = false;

/**
 * The built file (apps/server/dist) of a source module, for tests that start a process of
 * the server, a CLI or a helper: what `npm start` and `npm run admin` run, started in a few
 * seconds where the same file through tsx first compiled the whole server (12 s more per start
 * on this 2-core machine under load, five starts in server.test.ts alone). `npm test` builds
 * before the unit tests; a dist older than a source is refused with the command that fixes
 * it, so a test never runs yesterday's code.
 */
export function builtEntry(source: string): string {
  const built = path.join(DIST, source.replace(/\.ts$/, '.js'));
  if (!fs.existsSync(built)) {
    throw new Error(`${path.relative(process.cwd(), built)} is missing: run \`npm run build\` (npm test does) before this test`);
  }
  if (!checked) {
    const sourceTime = newestSource(SRC);
    const builtTime = fs.existsSync(BUILD_INFO) ? fs.statSync(BUILD_INFO).mtimeMs : 0;
    if (builtTime < sourceTime) {
      throw new Error('apps/server/dist is older than apps/server/src: run `npm run build -w @learnlingo/server` before this test');
    }
    checked = true;
  }
  return built;
}
