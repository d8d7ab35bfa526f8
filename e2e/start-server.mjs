// Starts the built server for the browser tests on a FRESH embedded database:
// wipes DATA_DIR, optionally imports a catalogue export first, then runs the server.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('DATA_DIR must be set');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });

const importAt = process.argv.indexOf('--import');
if (importAt !== -1) {
  const file = process.argv[importAt + 1];
  const result = spawnSync(process.execPath, [path.join(root, 'apps/server/dist/cli/import.js'), file], {
    stdio: 'inherit',
    env: process.env,
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// --setup FILE: a script that writes test data into the fresh database before the server opens it
const setupAt = process.argv.indexOf('--setup');
if (setupAt !== -1) {
  const result = spawnSync(process.execPath, [path.resolve(root, process.argv[setupAt + 1])], { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// --admin EMAIL: the school's first admin, made as a school makes it — `npm run admin -- add EMAIL`
// (this is what that script runs once it has built the server), before the server holds DATA_DIR.
// Its set-password e-mail is in DATA_DIR/outbox; admin-console.spec.ts follows it.
const adminAt = process.argv.indexOf('--admin');
if (adminAt !== -1) {
  const cli = [path.join(root, 'apps/server/dist/cli/admin.js'), 'add', process.argv[adminAt + 1], '--name', 'Hedda Head'];
  const result = spawnSync(process.execPath, cli, { stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => {
  // The database was only for this run.
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
