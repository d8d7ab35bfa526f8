import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectConfiguration, type UserConfig } from 'vitest/config';
import webConfig from './apps/web/vite.config.ts';

const contractSrc = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const alias = { '@learnlingo/contract': contractSrc };

/*
 * Test files share their worker's modules (`isolate: false`): each file still makes its own
 * database, app and stores, but the server's module graph (Fastify, better-auth, Drizzle,
 * zod …) and jsdom are loaded once per worker instead of once per file. On this 2-core
 * machine that cut the server:pglite run's CPU from 396 s to 257 s (its import phase from
 * 223 s to 16 s) and the web run's from 151 s to 48 s (jsdom's set-up from 156 s to 49 s).
 * The files below need a fresh module graph: they mock a module (vi.mock), render on the
 * server's React too (react-dom/server and react-dom's client then share a context, which
 * React refuses: "multiple renderers"), or assert what module state holds (RTK's injected
 * api slice, the toasts, the history length); they run isolated, in a project of their own.
 */
const ISOLATED_SERVER = [
  'src/catalogue/memory/search-index-fallback.test.ts',
  // Vite's dev server inside the app (npm run dev) loads React from source beside the built entry
  'src/plugins/ssr-dev.test.ts',
  // asserts that no render's request stays reachable: in a worker shared with other files, 4 of
  // its 1,200 requests stayed reachable in two CI runs of three (stop 35), not when run alone
  'src/plugins/ssr-memory.test.ts',
];
const ISOLATED_WEB = [
  'src/entry-server.test.tsx',
  'src/components/ui/avatar.test.tsx',
  'src/features/teachers/components/teacher-card.test.tsx',
  'src/lib/early-input.test.tsx',
  'src/store/store-memory.test.ts',
  'src/store/store.test.ts',
  'src/features/booking/calendar-feed.test.tsx',
  'src/features/teachers/hooks/use-url-filters.test.tsx',
  'src/features/booking/lessons-page.test.tsx',
  'src/features/teachers/teacher-page.test.tsx',
  'src/features/teachers/components/filters-bar.test.tsx',
  'src/features/teach/lessons-tab.test.tsx',
];

/** the web app's own config (its plugins and test settings), as `vitest` in apps/web reads it */
const web = (webConfig as (env: { command: 'serve'; mode: string; isSsrBuild: boolean }) => UserConfig)({
  command: 'serve',
  mode: 'test',
  isSsrBuild: false,
});

/**
 * Server tests run on a fresh embedded database (PGlite) per file, and once more on
 * PostgreSQL when TEST_DATABASE_URL is set (CI sets it). See apps/server/src/test/db.ts.
 */
const serverProject = (engine: 'pglite' | 'postgres', isolated = false): TestProjectConfiguration => ({
  resolve: { alias },
  test: {
    name: `server:${engine}${isolated ? ':isolated' : ''}`,
    root: 'apps/server',
    include: isolated ? ISOLATED_SERVER : ['src/**/*.test.ts'],
    exclude: isolated ? [] : ISOLATED_SERVER,
    isolate: isolated,
    environment: 'node',
    env: { TEST_DB_ENGINE: engine },
    setupFiles: ['./src/test/setup.ts'],
    globalSetup: [engine === 'pglite' ? './src/test/pglite-template.ts' : './src/test/postgres-template.ts'],
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
      serverProject('pglite', true),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres'), serverProject('postgres', true)] : []),
      { ...web, test: { ...web.test, exclude: ISOLATED_WEB, isolate: false } },
      { ...web, test: { ...web.test, name: 'web:isolated', include: ISOLATED_WEB } },
    ],
  },
});
