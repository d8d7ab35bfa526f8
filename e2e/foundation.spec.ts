import { test, expect } from './fixtures';

// Issue 2: `npm start` on a fresh DATA_DIR — the page loads and the API is healthy.
test('a fresh server serves the app and reports healthy', async ({ page, request, baseURL }) => {
  const health = await request.get(`${baseURL}/api/health`);
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok', engine: 'pglite' });

  await page.goto('/');
  await expect(page).toHaveTitle(/LearnLingo/);
  await expect(page.locator('#root')).not.toBeEmpty();

  // A fresh database is seeded with 32 generated teachers.
  const page1 = await request.get(`${baseURL}/api/teachers?limit=50`);
  expect(page1.status()).toBe(200);
  const body = (await page1.json()) as { items: unknown[]; nextCursor: string | null };
  expect(body.items).toHaveLength(32);
  expect(body.nextCursor).toBeNull();

  // Client routes fall back to the app; unknown API paths are a JSON 404.
  const deepLink = await request.get(`${baseURL}/teachers`, { headers: { accept: 'text/html' } });
  expect(deepLink.status()).toBe(200);
  expect(await deepLink.text()).toContain('<div id="root">');
  const missing = await request.get(`${baseURL}/api/nope`);
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
});
