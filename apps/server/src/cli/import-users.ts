import path from 'node:path';
import { importUsersFile } from '../accounts/import-users.js';
import { loadEnv } from '../config/env.js';
import { openConfiguredDatabase } from '../db/open.js';
import { runCli, UsageError } from './run.js';

const USAGE =
  'Usage: npm run import-users -- EXPORT.json --hash-config CONFIG.json\n' +
  '  EXPORT.json: `firebase auth:export EXPORT.json --format=JSON` of the original project\n' +
  '  CONFIG.json: its password hash parameters (Firebase console → Authentication → Users → ⋮ → Password hash parameters)\n' +
  '               as JSON: {"algorithm": "SCRYPT", "base64_signer_key": "…", "base64_salt_separator": "…", "rounds": 8, "mem_cost": 14}';

function parseArgs(argv: string[]): { exportFile: string; hashConfig?: string } {
  const args = argv.filter((a) => a !== '--');
  let hashConfig: string | undefined;
  const positional: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h') throw new UsageError(USAGE);
    if (arg === '--hash-config') {
      const value = args[i + 1];
      if (value === undefined || hashConfig !== undefined) throw new UsageError(USAGE);
      hashConfig = value;
      i += 1;
    } else if (arg.startsWith('--hash-config=')) {
      if (hashConfig !== undefined) throw new UsageError(USAGE);
      hashConfig = arg.slice('--hash-config='.length);
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option ${arg}\n${USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) throw new UsageError(USAGE);
  return { exportFile: positional[0] as string, ...(hashConfig === undefined ? {} : { hashConfig }) };
}

runCli(async () => {
  const { exportFile, hashConfig } = parseArgs(process.argv.slice(2));
  // `npm run` runs in the repo root; relative paths mean relative to where the user typed them.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const file = path.resolve(cwd, exportFile);
  const configFile = hashConfig === undefined ? undefined : path.resolve(cwd, hashConfig);
  const env = loadEnv();
  const { db, close } = await openConfiguredDatabase(env, `npm run import-users -- ${exportFile}`);
  try {
    const result = await importUsersFile(db, file, configFile);
    process.stdout.write(
      `Imported users from ${file}: ${result.inserted} inserted, ${result.unchanged} already here (left as they are)` +
        `${result.skipped > 0 ? `, ${result.skipped} skipped (no e-mail, or disabled)` : ''}.\n` +
        (result.withoutPassword > 0
          ? `${result.withoutPassword} of them have no password here (they signed in with another provider): "Forgot password?" sets one.\n`
          : '') +
        'Each user signs in with their old password; it is rehashed with this server\'s scheme at that first sign-in.\n',
    );
  } finally {
    await close();
  }
});
