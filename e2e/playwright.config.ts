import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E_ADMIN } from './admin-account';
import { chromiumArgs, findChromium } from './browser';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const catalogueFile = process.env.CATALOGUE_FILE ?? path.resolve(root, '../shared/data/teachers.json');

const chromium = findChromium();
if (!chromium) {
  throw new Error(
    'No Chromium found for the browser tests: install it (apt-get install -y chromium) or set CHROME_PATH.',
  );
}

/**
 * The app under test: the real server on a fresh embedded database, one per run.
 * Each run gets its own ports and data directories (derived from the runner's pid and
 * handed to the workers through the environment), so runs side by side never collide.
 */
// (20000–29999: below Linux's ephemeral ports and clear of services that listen in the
// 4000s on some machines — NATS took 4222 on this one)
process.env.E2E_PORT ??= String(20_000 + (process.pid % 5000) * 2);
const MAIN_PORT = Number(process.env.E2E_PORT);
const FRESH_PORT = MAIN_PORT + 1;
const server = (port: number, dataDir: string, importFile?: string, setup?: string, admin?: string) => ({
  command: `node e2e/start-server.mjs ${importFile ? `--import ${JSON.stringify(importFile)}` : ''}${setup ? ` --setup ${setup}` : ''}${admin ? ` --admin ${admin}` : ''}`,
  cwd: root,
  url: `http://127.0.0.1:${port}/api/health`,
  reuseExistingServer: false,
  timeout: 120_000,
  // SIGTERM, not SIGKILL: start-server.mjs stops the server and removes the run's DATA_DIR
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
  // the server's warnings and errors (LOG_LEVEL warn, no personal data) in the run's output,
  // so a failure in CI can be read against what the server said
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // first-load.spec.ts reads the first load's modules from their source maps
    SOURCE_MAPS: 'true',
    // Rate limiting stays on; the journeys sign many users up from one address.
    AUTH_ATTEMPTS_PER_10S: '100',
    // The journeys book from one address (a retried run too); the limits' own tests are the server's.
    BOOKINGS_PER_ADDRESS_PER_HOUR: '100',
    // As behind a proxy on this host: an X-Forwarded-For sent from loopback is believed. The
    // forgot-password journey is a client of its own (better-auth allows 3 reset requests per
    // address per 60 s, and a retried or repeated run would otherwise share one); the other
    // journeys send none and stay 127.0.0.1.
    TRUST_PROXY: '127.0.0.1',
  },
});

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: path.join(here, `artifacts/test-results-${MAIN_PORT}`),
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: path.join(here, `artifacts/report-${MAIN_PORT}`) }]],
  use: {
    baseURL: `http://127.0.0.1:${MAIN_PORT}`,
    // A trace records every action's DOM snapshot and screenshots: in CI only for the retry of
    // a failed journey (its evidence), not for the 70 that pass (the run must stay under 10 min)
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: chromium, args: chromiumArgs },
  },
  projects: [
    {
      name: 'foundation',
      testMatch: 'foundation.spec.ts',
      use: { ...devices['Desktop Chrome'], baseURL: `http://127.0.0.1:${FRESH_PORT}` },
    },
    {
      name: 'chromium',
      testIgnore: 'foundation.spec.ts',
      use: { ...devices['Desktop Chrome'] },
    },
  ],
  webServer: [
    // (reviews-setup.mjs: the reviews journey's past lesson and teacher account; --admin: the
    // school's first admin from `npm run admin -- add`, for admin-console.spec.ts)
    server(MAIN_PORT, path.join(here, `.data/main-${MAIN_PORT}`), catalogueFile, 'e2e/reviews-setup.mjs', E2E_ADMIN.email),
    server(FRESH_PORT, path.join(here, `.data/fresh-${FRESH_PORT}`)),
  ],
});
