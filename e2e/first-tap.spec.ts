import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

// Issue 28: what a person does while the page is on screen but its code still loads is not
// lost. The page's code is held back here (the app's entry, or the page's own chunk: React
// has started but not yet hydrated the page), the person acts, then the code arrives. The
// navigations resolve when the document does: held scripts would hold its load event too.

/** Holds back the scripts matching `held` until `release` is called. */
async function holdScripts(page: Page, held: RegExp): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(held, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const ENTRY = /\/assets\/index-[^/]+\.js$/;
const TEACHERS_PAGE = /\/assets\/teachers-page-[^/]+\.js$/;

for (const [what, held] of [
  ['the app', ENTRY],
  ['the page', TEACHERS_PAGE],
] as const) {
  test(`filters picked and a search typed while ${what} loads are the list's query once it runs`, async ({ page }) => {
    const release = await holdScripts(page, held);
    await page.goto('/teachers', { waitUntil: 'commit' });
    await page.getByLabel('Languages').selectOption('French');
    await page.getByLabel('Level of knowledge').selectOption({ index: 1 });
    await page.getByRole('searchbox', { name: 'Search teachers' }).fill('an');
    await expect(page).toHaveURL(/\/teachers$/); // nothing live yet
    release();
    await expect(page).toHaveURL(/\?q=an&language=French&level=/);
    await expect(page.getByLabel('Languages')).toHaveValue('French');
    await expect(page.getByRole('searchbox', { name: 'Search teachers' })).toHaveValue('an');
  });

  test(`a tap on a button only the app answers, while ${what} loads, is answered once, when it runs`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const release = await holdScripts(page, held);
    await page.goto('/teachers?language=French', { waitUntil: 'commit' });
    const toggle = page.getByRole('button', { name: 'Filters (1)' });
    await toggle.click();
    release();
    await expect(page.locator('html[data-hydrated]')).toBeAttached();
    // opened, not opened and closed again
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByLabel('Languages')).toBeVisible();
  });
}
