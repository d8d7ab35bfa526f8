import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

const contractSrc = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const alias = { '@learnlingo/contract': contractSrc };

/**
 * Server tests run on a fresh embedded database (PGlite) per file, and once more on
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). See apps/server/src/test/db.ts.
 */
const serverProject = (engine: 'pglite' | 'postgres'): TestProjectConfiguration => ({
  resolve: { alias },
  test: {
    name: `server:${engine}`,
    root: 'apps/server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB_ENGINE: engine },
    setupFiles: ['./src/test/setup.ts'],
    ...(engine === 'pglite' ? { globalSetup: ['./src/test/pglite-template.ts'] } : {}),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one: a single worker on a 2-core machine,
    // where most test files spend their time waiting on a database, mail or a timer. Two
    // workers there ran the whole suite (both engines) in 418 s against 601 s; three, 404 s.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias },
        test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      'apps/web/vite.config.ts',
    ],
  },
});
