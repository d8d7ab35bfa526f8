/**
 * The web app's layering (docs/decisions/085-web-layering-lint.md), in apps/web/src:
 *
 *   main/entry → app → features → store → lib, components
 *
 * - nothing below app/ imports app/;
 * - lib/ and components/ import no feature, components/ no store;
 * - a feature imports another feature only through its index.ts; app/ imports a feature
 *   through its index.ts or one of its lazy entries (LAZY_ENTRIES);
 * - the store imports features only for the slices it combines (`features/<name>/*-slice.ts`);
 * - no import cycles (type-only imports and dynamic `import()` do not count: neither runs
 *   while the modules are first evaluated).
 * Tests and their helpers (`*.test.ts(x)`, `testing/`, `src/test/`) may reach across features.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const src = path.join(path.dirname(fileURLToPath(import.meta.url)), 'apps/web/src');
const at = (...parts) => path.join(src, ...parts);
const features = readdirSync(at('features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Besides index.ts: entries of a feature's code that app/ loads on demand (lazy pages, a
 * modal's form), kept apart so that index.ts's importers do not carry them.
 */
const LAZY_ENTRIES = ['auth/account.ts', 'auth/forgot-password.ts', 'auth/auth-page.ts', 'auth/auth-texts.ts', 'booking/lessons.ts', 'reviews/public.ts'];

const anyFeatureFile = at('features/*/**');
const directionZones = [
  {
    target: ['features', 'store', 'lib', 'components'],
    from: 'app',
    message: 'app/ is the top layer: features, store, lib and components never import it.',
  },
  { target: ['lib', 'components'], from: 'features', message: 'lib/ and components/ are below the features.' },
  { target: 'components', from: 'store', message: 'components/ui are plain React: props in, events out.' },
  {
    target: 'store',
    from: [anyFeatureFile],
    except: [at('features/*/*-slice.ts')],
    message: 'The store imports a feature only for the slice it combines (features/<name>/*-slice.ts).',
  },
];
const publicFaceZones = [
  ...features.map((name) => ({
    target: `features/${name}`,
    from: [anyFeatureFile],
    except: [at('features', name, '**'), at('features/*/index.ts')],
    message: 'A feature imports another only through its index.ts.',
  })),
  {
    target: 'app',
    from: [anyFeatureFile],
    // `[.]` makes each entry a glob pattern, which the rule needs when `from` is one
    except: [at('features/*/index.ts'), ...LAZY_ENTRIES.map((entry) => at('features', entry.replace('.', '[.]')))],
    message: `app/ imports a feature through its index.ts (or a lazy entry: ${LAZY_ENTRIES.join(', ')}).`,
  },
];

const tests = ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/**/testing/**', 'apps/web/src/test/**'];

export const webLayering = [
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: src, zones: [...directionZones, ...publicFaceZones] }],
      'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }],
    },
  },
  {
    files: tests,
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: src, zones: directionZones }] },
  },
];
