import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { fullName, TEACHERS, type TeacherRecord } from './catalogue-data';

// Issue 9, "it works without JavaScript": the server-rendered catalogue browses, filters and
// pages with scripts off (docs/decisions/090).

const cards = (page: Page) => page.getByRole('article');
const names = (page: Page) => cards(page).getByRole('heading', { level: 2 }).allTextContents();

/** With scripts off nothing hydrates: wait for the document itself, not for <html data-hydrated>. */
async function open(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForLoadState('load');
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the catalogue filters by its form, pages by its links, opens Read more and a teacher by the name', async ({ page }) => {
    const language = 'French';
    const french = TEACHERS.filter((t) => t.languages.includes(language));
    expect(french.length, 'enough French teachers for two pages').toBeGreaterThan(4);

    await open(page, '/teachers');
    await expect(cards(page)).toHaveCount(4);
    await expect(page.getByText(`${TEACHERS.length} teachers`)).toBeVisible();
    // (axe needs scripts: the same markup is checked with them in catalogue.spec.ts and search.spec.ts)

    // filter: choose, then submit the form (nothing applies on change without scripts)
    await page.getByLabel('Languages').selectOption(language);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]language=French(&|$)/);
    await expect(page.getByText(`${french.length} teachers`)).toBeVisible();
    await expect(page.getByLabel('Languages')).toHaveValue(language);
    const firstPage = await names(page);
    expect(firstPage).toHaveLength(4);
    for (const name of firstPage) expect(french.map(fullName)).toContain(name);

    // Load more: a link to the page of the next teachers
    await page.getByRole('link', { name: 'Load more' }).click();
    await expect(page).toHaveURL(/[?&]language=French&cursor=[^&]+$/);
    await expect(cards(page).first()).toBeVisible();
    const secondPage = await names(page);
    expect(secondPage.length).toBe(Math.min(4, french.length - 4));
    for (const name of secondPage) {
      expect(french.map(fullName)).toContain(name);
      expect(firstPage).not.toContain(name);
    }

    // Read more: a <details> the browser opens by itself
    const card = cards(page).first();
    const teacher = french.find((t) => fullName(t) === secondPage[0]) as TeacherRecord;
    await expect(card.getByText(teacher.experience)).toBeHidden();
    await expect(card.locator('summary')).toHaveText('Read more', { useInnerText: true });
    await card.locator('summary').click();
    await expect(card.locator('details')).toHaveAttribute('open', '');
    // the label follows the open state without scripts (CSS on [open])
    await expect(card.locator('summary')).toHaveText('Show less', { useInnerText: true });
    await expect(card.getByText(teacher.experience)).toBeVisible();
    await expect(card.getByRole('list', { name: 'Reviews' })).toBeVisible();

    // the name leads to the teacher's page
    await card.getByRole('link', { name: fullName(teacher) }).click();
    await expect(page).toHaveURL(/\/teachers\/[^/?]+$/);
    await expect(page.getByRole('heading', { level: 1, name: fullName(teacher) })).toBeVisible();
  });

  test('below 768 px the filter panel stays open (nothing could unfold it) and the form still applies', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await open(page, '/teachers?q=a');
    await expect(page.getByRole('button', { name: /^Filters \(/ })).toBeHidden();
    await expect(page.getByLabel('Level of knowledge')).toBeVisible();
    const apply = page.getByRole('button', { name: 'Apply filters' });
    await expect(apply).toBeVisible();
    await page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' });
    await apply.click();
    await expect(page).toHaveURL(/[?&]sort=price-asc(&|$)/);
    await expect(page.getByLabel('Sort by').locator('option:checked')).toHaveText('Price: low to high');
    await expect(page.getByRole('searchbox', { name: 'Search teachers' })).toHaveValue('a');
  });
});

test('with JavaScript the same form applies on change: no "Apply filters" at any width, the panel folds below 768 px only', async ({ page }) => {
  await page.goto('/teachers');
  await expect(cards(page)).toHaveCount(4);
  const apply = page.getByRole('button', { name: 'Apply filters', includeHidden: true });
  const toggle = page.getByRole('button', { name: /^Filters \(/, includeHidden: true });
  for (const width of [375, 768, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(apply, `at ${width} px`).toBeHidden();
    if (width < 768) await expect(toggle, `at ${width} px`).toBeVisible();
    else await expect(toggle, `at ${width} px`).toBeHidden();
  }
});
