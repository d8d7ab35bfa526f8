import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const contractDir = fileURLToPath(new URL('../../packages/contract/src/', import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      // the contract from source; `/plain` is its zod-free part (safe for the first page load)
      { find: /^@learnlingo\/contract$/, replacement: `${contractDir}index.ts` },
      { find: /^@learnlingo\/contract\/plain$/, replacement: `${contractDir}plain.ts` },
    ],
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    // bench/page-weight.mjs reads it to follow a route's lazy chunk and its imports
    manifest: true,
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: { modules: { classNameStrategy: 'non-scoped' } },
    testTimeout: 15_000,
  },
});
