import path from 'node:path';
import { importFile } from '../catalogue/index.js';
import { loadEnv } from '../config/env.js';
import { openConfiguredDatabase } from '../db/open.js';
import { runCli, UsageError } from './run.js';

const USAGE =
  'Usage: npm run import -- FILE\n' +
  '  FILE: a realtime-database export: {"teachers": [...]}, {"teachers": {id: {...}}}, an object keyed by id, or an array';

runCli(async () => {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') throw new UsageError(USAGE);
  // `npm run import` runs in the repo root; a relative FILE means relative to where the user typed it.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0] as string);
  const env = loadEnv();
  const { db, close } = await openConfiguredDatabase(env, `npm run import -- ${args[0]}`);
  try {
    const result = await importFile(db, file);
    process.stdout.write(
      `Imported ${file}: ${result.inserted} inserted, ${result.updated} updated, ${result.unchanged} unchanged` +
        `${result.skipped > 0 ? `, ${result.skipped} empty entries skipped` : ''}.\n`,
    );
    if (result.overwroteEdits.length > 0) {
      // the export wins over console edits; the activity log keeps what each one was (decision 111)
      const shown = result.overwroteEdits.slice(0, 20).join(', ');
      const more = result.overwroteEdits.length > 20 ? ` and ${result.overwroteEdits.length - 20} more` : '';
      process.stdout.write(`Overwrote console edits of ${result.overwroteEdits.length} teacher(s): ${shown}${more} (see the console's Activity).\n`);
    }
  } finally {
    await close();
  }
});
