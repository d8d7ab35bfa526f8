import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layering rules (eslint.layering.js, decision 085) bite: ESLint's Node API lints
 * imports as if they stood in a file of the app, through the repository's own config.
 */
const src = path.resolve(import.meta.dirname, '..') + path.sep;
const repo = path.resolve(src, '../../..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: repo });
});

/** The layering findings (rule and message) for `code` placed at `file` (under src/). */
async function layering(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: `${src}${file}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'import-x/no-cycle')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layering lint', () => {
  it('lets a feature use another only through its index.ts', async () => {
    const file = 'features/booking/components/fixture.tsx';
    expect(await layering(file, "export { selectIsLoggedIn } from '../../auth/auth-slice';")).toEqual([
      expect.stringContaining('A feature imports another only through its index.ts'),
    ]);
    expect(await layering(file, "export { selectIsLoggedIn } from '../../auth';")).toEqual([]);
  });

  it('keeps app/ on top and components/ui plain', async () => {
    expect(await layering('features/teachers/fixture.ts', "export { App } from '../../app/app';")).toEqual([
      expect.stringContaining('app/ is the top layer'),
    ]);
    expect(await layering('store/fixture.ts', "export { Layout } from '../app/layout';")).toEqual([
      expect.stringContaining('app/ is the top layer'),
    ]);
    expect(await layering('components/ui/fixture.tsx', "export { useAppSelector } from '../../store';")).toEqual([
      expect.stringContaining('components/ui are plain React'),
    ]);
    expect(await layering('app/pages/fixture.tsx', "export { TeachersList } from '../../features/teachers/components/teachers-list';")).toEqual([
      expect.stringContaining('app/ imports a feature through its index.ts'),
    ]);
  });

  it('lets the store import only the slices it combines from the features', async () => {
    expect(await layering('store/fixture.ts', "export { TeacherCard } from '../features/teachers';")).toEqual([
      expect.stringContaining('The store imports a feature only for the slice it combines'),
    ]);
    expect(await layering('store/fixture.ts', "export { filtersSlice } from '../features/teachers/filters-slice';")).toEqual([]);
  });

  it('finds an import cycle through the store', async () => {
    // store.ts combines the favourites' slice, which uses the auth feature, whose session hook this is
    const file = 'features/auth/hooks/use-session-sync.ts';
    const today = readFileSync(`${src}${file}`, 'utf8');
    expect(await layering(file, today)).toEqual([]);
    const throughTheStore = today.replace("from '../../../store/hooks';", "from '../../../store';");
    expect(throughTheStore).not.toBe(today);
    expect(await layering(file, throughTheStore)).toEqual([expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)]);
  });
});
