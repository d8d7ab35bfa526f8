import { buildApp } from './app.js';
import { ensureCatalogueStatistics } from './catalogue/index.js';
import { seedIfEmpty } from './catalogue/index.js';
import { ensureAuthSecret } from './config/auth-secret.js';
import { EnvError, loadEnv } from './config/env.js';
import { makeTreePrivate, privateByDefault } from './config/private-files.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { openConfiguredDatabase } from './db/open.js';
import { loggableOutage } from './plugins/errors.js';
import { installProcessGuard } from './process-guard.js';

let app: Awaited<ReturnType<typeof buildApp>> | undefined;
/** set once the process can shut down gracefully (the database is open) */
let stop: ((code: 0 | 1) => void) | undefined;

// Errors nobody handled (process-guard.ts, decision 101): a database connection's are logged
// and survived; any other is logged as fatal, then the process stops gracefully with 1.
installProcessGuard({
  logger: () => app?.log,
  exit: () => (stop ? stop(1) : process.exit(1)),
});

/** The process entry: env → lock → database (migrated) → seed if empty → app → listen. */
async function main(): Promise<void> {
  privateByDefault();
  const loaded = loadEnv();
  // A DATA_DIR left readable by an older version or a looser umask is made private first.
  const madePrivate = makeTreePrivate(loaded.dataDir);
  const env = ensureAuthSecret(loaded);
  const opened = await openConfiguredDatabase(env);
  const { db } = opened;

  try {
    const seeded = await seedIfEmpty(db, env.seedCount);
    const analysed = await ensureCatalogueStatistics(db);
    app = await buildApp({ env, db });
    const log = app.log;
    // a connection that fails outside a query (idle in the pool, or the server going away):
    // the pool drops it; the log says so, without the data of any request
    db.onConnectionError?.((error) => log.warn({ error: loggableOutage(error) }, 'database connection lost; the pool replaces it'));
    if (seeded) app.log.info(`empty catalogue: seeded ${seeded.inserted} generated teachers`);
    if (analysed) app.log.info('catalogue had no planner statistics: analysed');
    if (madePrivate > 0) app.log.warn(`${env.dataDirDisplay}: made ${madePrivate} files and directories private to this user (0700/0600)`);
    await app.listen({ port: env.port, host: env.host });
    app.log.info(
      `LearnLingo on ${env.publicOrigin} — database: ${db.engine === 'pglite' ? `embedded PGlite in ${env.dataDirDisplay}` : 'PostgreSQL'}`,
    );
  } catch (error) {
    await app?.close();
    await opened.close();
    throw error;
  }

  // Graceful shutdown: stop accepting, let in-flight requests finish, close the
  // database, release the DATA_DIR lock. A second signal exits at once; so does a shutdown
  // that takes longer than 10 s.
  let closing = false;
  stop = (code) => {
    if (closing) {
      process.exit(1);
    }
    closing = true;
    const timer = setTimeout(() => {
      process.stderr.write('shutdown took too long; exiting\n');
      opened.lock?.release();
      process.exit(1);
    }, 10_000);
    timer.unref();
    void (async () => {
      try {
        await app?.close();
        await opened.close();
        process.exit(code);
      } catch (error) {
        process.stderr.write(`error during shutdown: ${String(error)}\n`);
        opened.lock?.release();
        process.exit(1);
      }
    })();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!closing) app?.log.info(`${signal}: shutting down`);
    stop?.(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  if (error instanceof EnvError || error instanceof DataDirLockedError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`LearnLingo failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
