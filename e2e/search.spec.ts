import path from 'node:path';
import type { Page } from '@playwright/test';
import { checkA11y, expect, SCREEN_WIDTHS, screenshotDir, shoot, test } from './fixtures';
import { fullName, TEACHERS, type TeacherRecord } from './catalogue-data';

// Issue 11: search, sort, price range and counts on the real server with the real
// 30-teacher catalogue (../shared/data/teachers.json) imported.

const cards = (page: Page) => page.getByRole('article');
const count = (page: Page) => page.getByText(/^\d+ teachers?$/);
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search teachers' });
const countText = (n: number) => `${n} ${n === 1 ? 'teacher' : 'teachers'}`;
/** The words a search reads, accents and case gone. */
const words = (t: TeacherRecord) =>
  [t.name, t.surname, ...t.languages, t.lesson_info, ...t.conditions, t.experience]
    .join(' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);

/** The top of the page (search, filters, first cards) at each width: what the user sees first. */
async function shootTop(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`) });
  }
  if (original) await page.setViewportSize(original);
}

async function loadAll(page: Page): Promise<number> {
  await expect(cards(page).first()).toBeVisible();
  const loadMore = page.getByRole('link', { name: 'Load more' });
  for (let guard = 0; guard < 50; guard += 1) {
    if ((await loadMore.count()) === 0) break;
    const before = await cards(page).count();
    await loadMore.click();
    await expect.poll(() => cards(page).count()).toBeGreaterThan(before);
  }
  await expect(loadMore).toHaveCount(0);
  return cards(page).count();
}

/** Every card's price, in page order ("Price / 1 hour: 30$"). */
async function cardPrices(page: Page): Promise<number[]> {
  const texts = await cards(page).getByText(/^\d+(\.\d+)?\$$/).allTextContents();
  return texts.map((text) => Number.parseFloat(text));
}

test.describe('finding a teacher', () => {
  test('search: a misspelt, accent-less name finds the teacher; the count says how many', async ({ page }) => {
    const target = TEACHERS[1] as TeacherRecord;
    await page.goto('/teachers');
    await expect(cards(page)).toHaveCount(4);
    await expect(count(page)).toHaveText(countText(TEACHERS.length));
    // the surname with its last letter dropped: typos are forgiven
    const typo = target.surname.toLowerCase().slice(0, -1);
    await searchBox(page).fill(typo);
    await expect(page).toHaveURL(new RegExp(`\\?q=${typo}$`));
    await expect(cards(page).getByRole('heading', { name: fullName(target) })).toBeVisible();
    // the default order (relevance while searching) is the select's empty value: a form submitted without JavaScript leaves it out
    await expect(page.getByLabel('Sort by').locator('option:checked')).toHaveText('Relevance');
    // a word of the lesson info (some teachers', not all)
    const withWord = TEACHERS.filter((t) => words(t).some((w) => w.startsWith('foundation')));
    expect(withWord.some((t) => /foundation/i.test(t.lesson_info))).toBe(true);
    expect(withWord.length).toBeLessThan(TEACHERS.length);
    await searchBox(page).fill('Foundation');
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL(/\?q=Foundation$/);
    await expect(count(page)).toHaveText(countText(withWord.length));
    expect(await loadAll(page)).toBe(withWord.length);
    expect((await cards(page).getByRole('heading', { level: 2 }).allTextContents()).sort()).toEqual(
      withWord.map(fullName).sort(),
    );
    await checkA11y(page, 'with a search');
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page).toHaveURL(/\/teachers$/);
    await expect(count(page)).toHaveText(countText(TEACHERS.length));
  });

  test('sort by price both ways: every card in order', async ({ page }) => {
    await page.goto('/teachers');
    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(/\?sort=price-asc$/);
    await expect(cards(page)).toHaveCount(4);
    expect(await loadAll(page)).toBe(TEACHERS.length);
    const ascending = await cardPrices(page);
    expect(ascending).toHaveLength(TEACHERS.length);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    expect(ascending).toEqual(TEACHERS.map((t) => t.price_per_hour).sort((a, b) => a - b));

    await page.getByLabel('Sort by').selectOption('price-desc');
    await expect(page).toHaveURL(/\?sort=price-desc$/);
    await expect(cards(page)).toHaveCount(4);
    expect(await loadAll(page)).toBe(TEACHERS.length);
    expect(await cardPrices(page)).toEqual(TEACHERS.map((t) => t.price_per_hour).sort((a, b) => b - a));
  });

  test('a price range: every card inside it, the count equals the data; Back and reload keep it all', async ({ page }) => {
    const [min, max] = [25, 30];
    const inside = TEACHERS.filter((t) => t.price_per_hour >= min && t.price_per_hour <= max);
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.length).toBeLessThan(TEACHERS.length);
    await page.goto('/teachers');
    await expect(cards(page)).toHaveCount(4);
    await page.getByLabel('Price from (min)').selectOption(String(min));
    await page.getByLabel('Price up to (max)').selectOption(String(max));
    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(new RegExp(`\\?sort=price-asc&price_min=${min}&price_max=${max}$`));
    await expect(count(page)).toHaveText(countText(inside.length));
    expect(await loadAll(page)).toBe(inside.length);
    for (const price of await cardPrices(page)) {
      expect(price).toBeGreaterThanOrEqual(min);
      expect(price).toBeLessThanOrEqual(max);
    }
    await shoot(page, 'search-price-range');
    await shootTop(page, 'search-price-range-top');

    await page.reload();
    await expect(page.getByLabel('Price from (min)')).toHaveValue(String(min));
    await expect(page.getByLabel('Price up to (max)')).toHaveValue(String(max));
    await expect(page.getByLabel('Sort by')).toHaveValue('price-asc');
    await expect(count(page)).toHaveText(countText(inside.length));

    // Back: before the sort, then before the maximum
    await page.goBack();
    await expect(page.getByLabel('Sort by').locator('option:checked')).toHaveText('Rating');
    await expect(page.getByLabel('Price up to (max)')).toHaveValue(String(max));
    await page.goBack();
    await expect(page.getByLabel('Price up to (max)')).toHaveValue('');
    await expect(page.getByLabel('Price from (min)')).toHaveValue(String(min));
    await expect(count(page)).toHaveText(countText(TEACHERS.filter((t) => t.price_per_hour >= min).length));

    // a teacher's page and back: the catalogue as it was
    await cards(page).first().getByRole('link').first().click();
    await page.getByRole('link', { name: '← All teachers' }).click();
    await expect(page).toHaveURL(new RegExp(`\\?price_min=${min}$`));
    await expect(page.getByLabel('Price from (min)')).toHaveValue(String(min));
  });

  test('the URL is corrected in place; the selects show the counts', async ({ page }) => {
    await page.goto('/teachers?language=french&price=abc');
    await expect(page).toHaveURL(/\?language=French$/);
    await expect(page.getByLabel('Languages')).toHaveValue('French');
    const french = TEACHERS.filter((t) => t.languages.includes('French')).length;
    await expect(count(page)).toHaveText(countText(french));
    await expect(page.getByLabel('Languages').locator('option', { hasText: `French (${french})` })).toHaveCount(1);
  });

  test('below 768 px the filters fold into a "Filters (n)" panel', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/teachers?language=English&q=a');
    const toggle = page.getByRole('button', { name: 'Filters (1)' });
    await expect(toggle).toBeVisible();
    await expect(page.getByLabel('Languages')).toBeHidden();
    // the form's submit button is for a browser without JavaScript only (docs/decisions/090)
    await expect(page.getByRole('button', { name: 'Apply filters', includeHidden: true })).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByLabel('Languages')).toBeVisible();
    await page.getByLabel('Level of knowledge').selectOption({ index: 1 });
    await expect(page.getByRole('button', { name: 'Filters (2)' })).toBeVisible();
    await checkA11y(page, 'mobile filters open');
    await page.screenshot({ path: path.join(screenshotDir, 'search-mobile-panel-375.png') });
    await page.getByRole('link', { name: 'Clear all' }).click();
    await expect(page).toHaveURL(/\/teachers$/);
    await expect(page.getByRole('button', { name: 'Filters (0)' })).toBeVisible();
  });

  test('the selects show their longest values whole at 768 and 1440 px', async ({ page }) => {
    await page.goto('/teachers');
    await expect(cards(page)).toHaveCount(4);
    for (const width of [768, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      for (const label of ['Languages', 'Level of knowledge', 'Price from (min)', 'Price up to (max)', 'Sort by']) {
        const select = page.getByLabel(label, { exact: true });
        // the widest option's text, in the select's font, fits between its paddings
        const fits = await select.evaluate((el: HTMLSelectElement) => {
          const style = getComputedStyle(el);
          const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
          context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          const widest = Math.max(...Array.from(el.options).map((o) => context.measureText(o.text).width));
          const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
          return room >= widest;
        });
        expect(fits, `${label} at ${width} px`).toBe(true);
      }
    }
    await shoot(page, 'search-filters');
  });
});
