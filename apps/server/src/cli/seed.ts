import { parseArgs } from 'node:util';
import { seedGenerated } from '../catalogue/index.js';
import { loadEnv } from '../config/env.js';
import { openConfiguredDatabase } from '../db/open.js';
import { seedLessonReviews } from '../modules/reviews/review-seed.js';
import { runCli, UsageError } from './run.js';

const USAGE =
  'Usage: npm run seed -- --count N [--lesson-reviews R]   (fills the catalogue up to N generated teachers;\n' +
  '       R: past lessons with a review per teacher, for the benchmarks)';

runCli(async () => {
  let values: { count?: string; help?: boolean; 'lesson-reviews'?: string };
  try {
    ({ values } = parseArgs({ options: { count: { type: 'string', short: 'n' }, 'lesson-reviews': { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const env = loadEnv();
  const count = values.count === undefined ? env.seedCount : Number(values.count);
  if (!Number.isInteger(count) || count < 0 || count > 1_000_000) {
    throw new UsageError(`--count must be a whole number from 0 to 1000000.\n${USAGE}`);
  }

  const started = Date.now();
  const { db, close } = await openConfiguredDatabase(env, 'npm run seed');
  try {
    const where = db.engine === 'postgres' ? 'PostgreSQL (DATABASE_URL)' : `${env.dataDirDisplay} (embedded)`;
    process.stdout.write(`Seeding up to ${count} generated teachers into ${where}…\n`);
    const result = await seedGenerated(db, count);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`Inserted ${result.inserted}; the catalogue now has ${result.total} teachers (${seconds} s).\n`);
    const perTeacher = values['lesson-reviews'] === undefined ? 0 : Number(values['lesson-reviews']);
    if (!Number.isInteger(perTeacher) || perTeacher < 0 || perTeacher > 1000) throw new UsageError(`--lesson-reviews must be a whole number from 0 to 1000.\n${USAGE}`);
    if (perTeacher > 0) {
      const { reviews } = await seedLessonReviews(db, perTeacher);
      process.stdout.write(`Added ${reviews} reviewed past lessons (${((Date.now() - started) / 1000).toFixed(1)} s).\n`);
    }
  } finally {
    await close();
  }
});
