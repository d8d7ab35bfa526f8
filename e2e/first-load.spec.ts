import { gzipSync } from 'node:zlib';
import { test, expect, whenAppRuns } from './fixtures';

// Issue 3 / docs/decisions/021: the JavaScript that `/` loads first (the entry script and its
// modulepreloads, gzip -9) stays under 100 kB, and nothing that loads on demand creeps back in.
const BUDGET_BYTES = 100_000;
/** Modules that must never be part of the first load (they load with pages, forms, toasts). */
const ON_DEMAND = /@reduxjs[\\/]toolkit[\\/]dist[\\/]query|node_modules[\\/]zod[\\/]|react-hook-form|@hookform|react-hot-toast|src[\\/]lib[\\/]api\.ts/;

test('first load of /: under 100 kB of JavaScript gzip, without RTK Query, zod or the forms', async ({ page, request }) => {
  const html = await (await request.get('/', { headers: { accept: 'text/html' } })).text();
  const scripts = [
    ...html.matchAll(/<script\b[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((match) => match[1]!);
  expect(scripts.length).toBeGreaterThan(0);

  let gzipBytes = 0;
  const modules: string[] = [];
  for (const script of new Set(scripts)) {
    const response = await request.get(script);
    expect(response.ok(), script).toBe(true);
    const body = await response.body();
    gzipBytes += gzipSync(body, { level: 9 }).length;
    // which modules it holds, from its sourcemap (the bundler's tiny runtime chunk has none)
    const mapFile = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(body.toString('utf8'))?.[1];
    if (!mapFile) continue;
    const map = await request.get(new URL(mapFile, new URL(script, 'http://x')).pathname);
    expect(map.ok(), mapFile).toBe(true);
    modules.push(...((await map.json()) as { sources: string[] }).sources);
  }
  expect(gzipBytes, `first-load JS ${gzipBytes} B gzip`).toBeLessThan(BUDGET_BYTES);
  expect(modules.filter((source) => ON_DEMAND.test(source))).toEqual([]);
  // the check reads real module paths: the shell and React are there
  expect(modules.some((source) => source.endsWith('src/app/layout.tsx'))).toBe(true);
  expect(modules.some((source) => source.includes('react-dom'))).toBe(true);

  // and the browser loads exactly that before the user does anything, then the page works
  const requested: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'script') requested.push(new URL(req.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Unlock your potential');
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(requested.filter((path) => /login-form|register-form|auth-modals|sign-out/.test(path))).toEqual([]);
});

// Issue 28: the catalogue's pages load their cards' code, not the forms'. A card's Book trial
// lesson and heart name a modal and a text; once those sat in chunks with the forms, /teachers
// and a teacher's page evaluated zod, every schema of the contract, react-hook-form and the
// lessons pages before the page was live (~3× the code: bench/first-tap.mjs, decision 124).
const FORMS_AND_SCHEMAS = /node_modules[\\/]zod[\\/]|react-hook-form|@hookform|src[\\/]features[\\/]auth[\\/]components[\\/](login|register)-form|src[\\/]app[\\/]pages[\\/]lessons-page/;

for (const which of ['/teachers', "a teacher's page"]) {
  test(`${which} comes alive without the forms' or the schemas' code`, async ({ page, request }) => {
    const first = (await (await request.get('/api/teachers?limit=1')).json()) as { items: { id: string }[] };
    const path = which === '/teachers' ? which : `/teachers/${encodeURIComponent(first.items[0]!.id)}`;
    const scripts = new Set<string>();
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.add(new URL(req.url()).pathname);
    });
    await page.goto(path);
    await whenAppRuns(page);
    // the page's own code is there (the check reads real module paths)
    const modules: string[] = [];
    for (const script of scripts) {
      const body = (await (await request.get(script)).body()).toString('utf8');
      const mapFile = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(body)?.[1];
      if (!mapFile) continue;
      const map = await request.get(new URL(mapFile, new URL(script, 'http://x')).pathname);
      expect(map.ok(), mapFile).toBe(true);
      modules.push(...((await map.json()) as { sources: string[] }).sources);
    }
    expect(modules.some((source) => source.endsWith('src/features/teachers/components/teacher-card.tsx'))).toBe(true);
    expect(modules.filter((source) => FORMS_AND_SCHEMAS.test(source))).toEqual([]);
  });
}
