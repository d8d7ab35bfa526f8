import type { Page } from '@playwright/test';
import { checkA11y, expect, test } from './fixtures';

// Issue 9, "a shell that never breaks": a page's code that cannot load (an old tab after a
// redeploy removed its file, or no network) never replaces the app with the error page.

const TEACHERS_CHUNK = '**/assets/teachers-page-*.js';
const hero = (page: Page) => page.getByRole('heading', { level: 1, name: /Unlock your potential/ });
const errorPage = (page: Page) => page.getByRole('heading', { name: 'Unexpected Application Error!' });
const teachersLink = (page: Page) => page.getByRole('navigation').getByRole('link', { name: 'Teachers' });

/** The home page, with the toaster (and the failure handling that loads with it) in place. */
async function openHome(page: Page): Promise<string[]> {
  const documents: string[] = [];
  await page.goto('/');
  await expect(hero(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
  return documents;
}

test('a page whose file is gone after a redeploy (404): the tab reloads once, at that page, and shows it', async ({ page }) => {
  const documents = await openHome(page);
  // the old file name answers 404 until the tab reloads (and gets the new page's names)
  let missed = 0;
  await page.route(TEACHERS_CHUNK, (route) =>
    documents.length === 0 ? (missed++, route.fulfill({ status: 404, body: 'Not Found' })) : route.continue(),
  );
  await teachersLink(page).click();
  await expect(page.getByRole('article')).toHaveCount(4);
  await expect(page).toHaveURL(/\/teachers$/);
  expect(missed).toBeGreaterThan(0);
  expect(documents).toEqual(['/teachers']);
  await expect(errorPage(page)).toHaveCount(0);
});

test('a page whose file is missing for good: one reload, then the error page — no reload loop', async ({ page }) => {
  const documents = await openHome(page);
  await page.route(TEACHERS_CHUNK, (route) => route.fulfill({ status: 404, body: 'Not Found' }));
  await teachersLink(page).click();
  await expect(errorPage(page)).toBeVisible();
  // give a loop the time it would need to show itself
  await page.waitForTimeout(1500);
  expect(documents).toEqual(['/teachers']);
  await expect(errorPage(page)).toBeVisible();
});

test('offline: a toast says so and the current page stays; back online, the page opens', async ({ page, context }) => {
  const documents = await openHome(page);
  await context.setOffline(true);
  await teachersLink(page).click();
  const toast = page.getByRole('status').filter({ hasText: /You are offline/ });
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(hero(page)).toBeVisible();
  await expect(errorPage(page)).toHaveCount(0);
  await checkA11y(page, 'offline toast on the home page');
  // a second try while still offline: the same answer, the page still there
  await teachersLink(page).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(hero(page)).toBeVisible();

  await context.setOffline(false);
  await teachersLink(page).click();
  await expect(page.getByRole('article')).toHaveCount(4);
  await expect(page).toHaveURL(/\/teachers$/);
  await expect(errorPage(page)).toHaveCount(0);
  // whether the browser retried the file or reloaded once for it, no loop
  expect(documents.length).toBeLessThanOrEqual(1);
});
