import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { testEngine } from '../test/db.js';

// `npm run dev` (WEB_DEV=true): Vite runs inside the server and pages render from apps/web/src.
// It does not depend on the database engine, and Vite's start is slow: one run is enough.
describe.skipIf(testEngine === 'postgres')('npm run dev: Vite inside the server (PGlite run only: nothing in it depends on the engine)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 6, env: { WEB_DEV: 'true' } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('renders pages from source, with Vite’s client for hot reload and a policy that lets it run', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/teachers', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>Teachers · LearnLingo</title>');
    expect(response.body.match(/<article /g)?.length).toBe(4);
    expect(response.body).toContain('src="/@vite/client"');
    expect(response.body).toContain('src="/src/entry-client.tsx"');
    // the app's own policy (as its API answers carry it), but for the two hot reload needs
    const directives = (policy: unknown) =>
      new Map(String(policy).split(';').map((directive) => {
        const [name = '', ...values] = directive.trim().split(/\s+/);
        return [name, values.join(' ')] as const;
      }));
    const dev = directives(response.headers['content-security-policy']);
    const app = directives((await t.app.inject({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    expect([dev.get('script-src'), dev.get('connect-src')]).toEqual(["'self' 'unsafe-inline'", "'self' ws: wss:"]);
    for (const name of ['script-src', 'connect-src']) {
      dev.delete(name);
      app.delete(name);
    }
    expect(app.get('form-action')).toBe("'self'");
    expect(dev).toEqual(app);
    // never cached: the source changes under it
    expect(response.headers['cache-control']).toBe('private, no-store');
  }, 60_000);

  it("serves the app's modules through Vite, and the API is still the server's own", async () => {
    const module = await t.app.inject({ method: 'GET', url: '/src/entry-client.tsx' });
    expect(module.statusCode).toBe(200);
    expect(module.headers['content-type']).toMatch(/javascript/);
    expect(module.body).toContain('hydrateRoot');
    const api = await t.app.inject({ method: 'GET', url: '/api/teachers' });
    expect(api.statusCode).toBe(200);
    expect(api.json<{ items: unknown[] }>().items).toHaveLength(4);
  }, 60_000);
});
