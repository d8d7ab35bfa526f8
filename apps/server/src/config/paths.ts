import { fileURLToPath } from 'node:url';

/**
 * The server package's root folder. Compiled files live in dist/<dir>/x.js and sources
 * in src/<dir>/x.ts, so the root is two levels up from this module either way.
 */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

/** drizzle-kit's generated SQL migrations, committed beside src/. */
export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Where `npm run build -w @learnlingo/web` writes the web app. */
export const defaultWebDist = fileURLToPath(new URL('../../../web/dist', import.meta.url));
