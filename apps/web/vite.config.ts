import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { BuildEnvironmentOptions, Plugin, Rolldown } from 'vite';
import { defineConfig } from 'vitest/config';

const contractDir = fileURLToPath(new URL('../../packages/contract/src/', import.meta.url));
const appSource = fileURLToPath(new URL('./src/', import.meta.url));
const entryModule = fileURLToPath(new URL('./src/entry-client.tsx', import.meta.url));

/**
 * react-router's package exports only its development build (remix-run/react-router#14102,
 * open): production builds take the production one, without the dev-only warnings.
 */
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

/** The libraries the first page needs (not RTK Query, zod, react-hook-form, react-hot-toast). */
const firstLoadLibraries =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-redux|redux|redux-thunk|immer|use-sync-external-store)[\\/]|node_modules[\\/]@reduxjs[\\/]toolkit[\\/]dist[\\/]redux-toolkit\.|vite[\\/]preload-helper/;

/**
 * The app's modules that the entry imports statically (directly or not), with the contract
 * modules they import (its guards, through `@learnlingo/contract/guards`): the shell. A
 * contract module shared with lazy chunks would otherwise be a chunk of its own, fetched and
 * compressed apart.
 */
const shellModules = new WeakMap<Rolldown.ChunkingContext, Set<string>>();
function staticallyImportedByEntry(id: string, context: Rolldown.ChunkingContext): boolean {
  let reached = shellModules.get(context);
  if (!reached) {
    reached = new Set();
    const queue = [entryModule];
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (reached.has(next) || !(next.startsWith(appSource) || next.startsWith(contractDir))) continue;
      reached.add(next);
      queue.push(...(context.getModuleInfo(next)?.importedIds ?? []));
    }
    shellModules.set(context, reached);
  }
  return id !== entryModule && reached.has(id);
}

/**
 * The first page load in one chunk beside the entry: those libraries and the shell. Left
 * to itself, the bundler splits modules that lazy chunks share with the shell into many
 * small chunks, which `/` then fetches separately and gzip compresses apart (≈ +1.5 kB).
 * See docs/decisions/021.
 */
const firstLoadChunk = (id: string, context: Rolldown.ChunkingContext) =>
  firstLoadLibraries.test(id) || staticallyImportedByEntry(id, context) ? 'shell' : null;

const authFormModules =
  /src[\\/](features[\\/]auth[\\/](components[\\/](login-form|register-form|forgot-password-form|password-field|page-form|use-auth-form-failure)|auth-texts)|components[\\/]ui[\\/](text-field|icon|eye-icons))/;

// (not booking-texts.ts: a catalogue card's Book trial lesson names those words, and a module of
// this group imported by the card makes the whole chunk, with zod and the forms it imports, a
// static dependency of /teachers and a teacher's page: decision 124. The same for the modal and
// auth-forms' icon.tsx, which the modal therefore does not import.)
const lessonsModules =
  /src[\\/](app[\\/]pages[\\/]lessons-page|features[\\/]booking[\\/](api[\\/]|lib[\\/]|components[\\/](lessons-view|lesson-card|lesson-when|booking-page|booking-confirmation))|components[\\/]ui[\\/](radio-group|text-area)|features[\\/]reviews[\\/](index|api[\\/]reviews-api|components[\\/](lesson-review-box|review-view|reviews)))/;

// (the teacher's calendar feed stays a chunk of its own, loaded by the Lessons tab: inside
// staff, its panel's chunk would become a static dependency of staff, named in the shell's table)
const staffModules = /src[\\/](app[\\/]pages[\\/](admin-page|teach-page)|features[\\/](admin[\\/]|teach[\\/](?!calendar-feed)))/;

/**
 * What every page's code reads through: RTK Query with the API client, the head and early
 * input, the contract's guards and messages, the toast and the link button. Left to itself
 * the bundler makes each its own chunk (5 of them under 2 kB): a page's load then asks for a
 * dozen files, each a request, a `<link rel=modulepreload>` to insert and a module record to
 * build (decision 132). Not the modal: its stylesheet would be inlined in `/` (which opens a
 * modal only when asked), 1.4 kB more of HTML.
 */
const commonModules =
  /node_modules[\\/](reselect|@standard-schema[\\/]utils|@reduxjs[\\/]toolkit[\\/]dist[\\/]query)[\\/]|packages[\\/]contract[\\/]src[\\/](account-messages|early-input|messages|api-guards|catalogue-filters|catalogue-query|plain)\.ts$|apps[\\/]web[\\/]src[\\/](lib[\\/](api|api-error|ssr-origin|head|early-input|toast)\.ts|components[\\/]ui[\\/]button-link\.tsx)$/;

/**
 * The catalogue's cards and what they hold (the teachers feature, a heart, Book trial lesson's
 * button and words, the pictures' paths): what `/teachers` and a teacher's page share, one
 * chunk instead of four (decision 132). (Not the booking styles' class names: the booking
 * page and the modal share them, and `/` would inline their stylesheet from `common`.)
 */
const catalogueModules =
  /apps[\\/]web[\\/]src[\\/](features[\\/](teachers|favorites)[\\/]|features[\\/]booking[\\/](index\.ts|booking-texts\.ts|components[\\/]book-trial-button\.tsx)|components[\\/]ui[\\/](select|empty-state|avatar))|packages[\\/]contract[\\/]src[\\/]avatars\.ts$/;

/**
 * The first load's scripts (the entry and its modulepreloads) at low fetch priority. The
 * server sends the whole page, so they are not needed for the first paint: at the default
 * (high) priority they share a slow connection with the HTML, the font and the first picture
 * and delay what the user sees first. Module scripts run after parsing either way (decision 092).
 */
const firstLoadScriptsLowPriority = (): Plugin => ({
  name: 'learnlingo:first-load-scripts-low-priority',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler: (html) =>
      html
        .replace(/<script type="module"(?![^>]*fetchpriority)/g, '<script type="module" fetchpriority="low"')
        .replace(/<link rel="modulepreload"(?![^>]*fetchpriority)/g, '<link rel="modulepreload" fetchpriority="low"'),
  },
});

/** The browser's build (dist/): the entry, the shell chunk, a chunk per lazy page. */
const clientBuild = {
  target: 'es2022',
  sourcemap: true,
  // bench/page-weight.mjs and the server (its page CSS links) read it
  manifest: true,
  // every browser that runs es2022 code preloads modules natively
  modulePreload: { polyfill: false },
  rolldownOptions: {
    output: {
      // 6 hash characters, not 8: the shell's table of lazy chunks' files lists ~45 names, and
      // random characters are what gzip cannot shrink (−119 B of the first load; decision 091)
      chunkFileNames: 'assets/[name]-[hash:6].js',
      assetFileNames: 'assets/[name]-[hash:6][extname]',
      codeSplitting: {
        groups: [
          { name: firstLoadChunk, includeDependenciesRecursively: false },
          // My lessons and the booking page with the booking API, lesson times and confirmation
          // they share with the booking modal (and the learner's review form, which /teach's
          // reviews share): one chunk, so the shell's list of lazy-route dependencies names one
          // file, not two
          { name: 'lessons', test: lessonsModules, includeDependenciesRecursively: false },
          // Log in, Registration and Forgot password's forms with the fields they share: one
          // chunk instead of nine (each a hashed name the shell's table lists, ~10 B of gzip each)
          { name: 'auth-forms', test: authFormModules, includeDependenciesRecursively: false },
          // the school console, the invitation page (decision 109) and /teach: one chunk
          { name: 'staff', test: staffModules, includeDependenciesRecursively: false },
          { name: 'common', test: commonModules, includeDependenciesRecursively: false },
          { name: 'catalogue', test: catalogueModules, includeDependenciesRecursively: false },
        ],
      },
    },
  },
} satisfies BuildEnvironmentOptions;

/**
 * CSS module class names in the builds: `_local_hash`, the hash of the stylesheet's path from
 * the web app's root (the same in the browser's and the server's build), without the
 * default's source line (`_loginButton_1yupe_157`): the shell's class maps are in the first
 * load, and those digits are bytes every visitor fetches for nothing (~30 names).
 */
const webRoot = fileURLToPath(new URL('.', import.meta.url));
function scopedName(local: string, filename: string): string {
  const file = path.relative(webRoot, filename.split('?')[0]!).split(path.sep).join('/');
  return `_${local}_${createHash('sha256').update(file).digest('hex').slice(0, 5)}`;
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [react(), firstLoadScriptsLowPriority()],
  css: command === 'build' ? { modules: { generateScopedName: scopedName } } : undefined,
  resolve: {
    alias: [
      // the contract from source; `/plain` is its zod-free part (safe for the first page load)
      { find: /^@learnlingo\/contract$/, replacement: `${contractDir}index.ts` },
      { find: /^@learnlingo\/contract\/plain$/, replacement: `${contractDir}plain.ts` },
      // the guards alone, for the shell (without the rest of `/plain`)
      { find: /^@learnlingo\/contract\/guards$/, replacement: `${contractDir}guards.ts` },
      ...(command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : []),
    ],
  },
  server: {
    host: '127.0.0.1',
    // `vite` alone sends the API to the server on :3000; inside the server (`npm run dev`,
    // WEB_DEV=true) the server answers it itself
    proxy: process.env.WEB_DEV === 'true' ? undefined : { '/api': 'http://127.0.0.1:3000' },
  },
  // The server build (src/entry-server.tsx → dist-ssr/, run by the Fastify server) bundles
  // react-router, so that it too gets its production build (the alias above).
  ssr: { noExternal: command === 'build' ? ['react-router'] : [] },
  build: isSsrBuild
    ? { target: 'node20', outDir: 'dist-ssr', sourcemap: true, emptyOutDir: true }
    : clientBuild,
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    css: { modules: { classNameStrategy: 'non-scoped' as const } },
    testTimeout: 15_000,
  },
}));
