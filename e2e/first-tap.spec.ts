import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { expect, formOf, signUpViaApi, test } from './fixtures';

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

/** Whether React has hydrated every element `locator` finds (React's own key on each: no public signal exists). */
const allHydrated = (locator: Locator) =>
  locator.evaluateAll((all) => all.every((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'))));
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

  test(`Load more tapped while ${what} loads adds the next teachers once it runs, not a page of them alone`, async ({ page }) => {
    const release = await holdScripts(page, held);
    await page.goto('/teachers', { waitUntil: 'commit' });
    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(4);
    const firstFour = await cards.getByRole('heading', { level: 2 }).allTextContents();
    await page.getByRole('link', { name: 'Load more' }).click();
    release();
    await expect(cards).toHaveCount(8);
    expect((await cards.getByRole('heading', { level: 2 }).allTextContents()).slice(0, 4)).toEqual(firstFour);
    await expect(page).toHaveURL(/\/teachers$/);
  });
}

/**
 * A proxy of the app on 127.0.0.1 that sends the page at `path` in two parts: up to `cut` (the
 * page so far is on screen, the parser waits for the rest), and the rest once `release` is
 * called: a page still arriving, as on a slow connection or a slow phone's parser.
 */
async function pageInTwoParts(baseURL: string, pagePath: string, cut: string) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const proxy = http.createServer((request, response) => {
    void (async () => {
      const upstream = await fetch(new URL(request.url ?? '/', baseURL), {
        headers: { accept: request.headers.accept ?? '*/*', cookie: request.headers.cookie ?? '', 'accept-encoding': 'identity' },
        redirect: 'manual',
      });
      const headers = Object.fromEntries([...upstream.headers].filter(([name]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(name)));
      const body = Buffer.from(await upstream.arrayBuffer());
      response.writeHead(upstream.status, headers);
      const at = request.url === pagePath ? body.indexOf(cut) : -1;
      if (at < 0) return void response.end(body);
      response.write(body.subarray(0, at));
      await released;
      response.end(body.subarray(at));
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${pagePath}`;
  const close = () => new Promise<void>((resolve) => {
    proxy.close(() => resolve());
    proxy.closeAllConnections();
  });
  return { url, release, close };
}

test("a filter picked while the page is still arriving, the cards not yet, is the list's query once it runs (decision 134)", async ({ page, baseURL }) => {
  const proxy = await pageInTwoParts(baseURL!, '/teachers', '<article');
  try {
    await page.goto(proxy.url, { waitUntil: 'commit' });
    await page.getByLabel('Languages').selectOption('French');
    await expect(page.getByRole('article')).toHaveCount(0); // the parser has not reached the cards
    proxy.release();
    await expect(page).toHaveURL(/\/teachers\?language=French$/);
    await expect(page.getByLabel('Languages')).toHaveValue('French');
  } finally {
    proxy.release();
    await proxy.close();
  }
});

test("the narrow screens' Menu tapped while the app loads opens, and stays open once it runs", async ({ page }) => {
  // a popover: the browser opens it without the app, so the tap is not the app's to answer again
  await page.setViewportSize({ width: 375, height: 800 });
  const release = await holdScripts(page, ENTRY);
  await page.goto('/teachers', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Menu' }).click();
  const isOpen = () => page.locator('#site-menu').evaluate((el) => el.matches(':popover-open'));
  expect(await isOpen()).toBe(true);
  release();
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  // the replay of early taps has run (useHead's effect, lib/early-input.ts) by the time the page is live
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  expect(await isOpen()).toBe(true);
  await expect(page.getByRole('link', { name: 'Teachers' })).toBeVisible();
});

test('the page is live before its cards are hydrated, and a tap on a card React has not hydrated yet is answered at once (decision 137)', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // The moment the app marks <html> live (useHead's effect: `dataset.hydrated = ''`): whether
  // React holds each card's heart yet; and, right after, a tap on the last card's heart.
  // React hydrates a card's boundary at once for a tap, then answers it; otherwise after the
  // page is live, at low priority.
  await page.addInitScript(() => {
    type Record = { heldAtLive?: boolean[]; heldAtTap?: boolean };
    const record = window as unknown as Record;
    const held = (element: Element | undefined) => !!element && Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
    const hearts = () => [...document.querySelectorAll('article form[action="/favorites"] button')];
    const own = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'dataset')!;
    Object.defineProperty(HTMLElement.prototype, 'dataset', {
      configurable: true,
      get(this: HTMLElement) {
        const dataset = own.get!.call(this) as DOMStringMap;
        if (this !== document.documentElement) return dataset;
        return new Proxy(dataset, {
          set(target, key, value) {
            if (key === 'hydrated' && !record.heldAtLive) {
              record.heldAtLive = hearts().map(held);
              queueMicrotask(() => {
                const last = hearts().at(-1) as HTMLElement | undefined;
                record.heldAtTap = held(last);
                last?.click();
              });
            }
            return Reflect.set(target, key, value);
          },
        });
      },
    });
  });
  await page.goto('/teachers', { waitUntil: 'commit' });
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  const seen = await page.evaluate(() => {
    const { heldAtLive, heldAtTap } = window as unknown as { heldAtLive: boolean[]; heldAtTap: boolean };
    return { heldAtLive, heldAtTap };
  });
  expect(seen.heldAtLive).toEqual([false, false, false, false]);
  expect(seen.heldAtTap).toBe(false);
  await expect(page.getByText('You need to authenticate')).toBeVisible();
  await expect(formOf(page, 'Login')).toBeVisible();
  // and each card is hydrated soon after, without a tap
  await expect.poll(() => allHydrated(page.locator('article form[action="/favorites"] button'))).toBe(true);
});

// A mid-range phone: the CPU four times slower (Chromium's throttling), so the page is on
// screen well before it is live. Each main control is used the moment it shows, from a fresh
// page, and does what it says — whichever side of hydration the tap lands on.
test.describe('at CPU ×4, each main control the moment it is visible', () => {
  test.beforeEach(async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  });

  test('Log in and Registration open their forms', async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
    await expect(formOf(page, 'Login')).toBeVisible();
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByRole('banner').getByRole('link', { name: 'Registration' }).click();
    await expect(formOf(page, 'Registration')).toBeVisible();
  });

  test("a visitor's heart asks to sign in", async ({ page }) => {
    await page.goto('/teachers', { waitUntil: 'commit' });
    await page.getByRole('article').first().getByRole('button', { name: 'Add to favorites' }).click();
    await expect(page.getByText('You need to authenticate')).toBeVisible();
    await expect(formOf(page, 'Login')).toBeVisible();
  });

  test('Read more, then Book trial lesson, opens the booking', async ({ page }) => {
    await page.goto('/teachers', { waitUntil: 'commit' });
    const card = page.getByRole('article').nth(2);
    await card.locator('summary', { hasText: 'Read more' }).click();
    await card.getByRole('link', { name: 'Book trial lesson' }).click();
    await expect(formOf(page, 'Book trial lesson')).toBeVisible();
    await expect(page.getByLabel('Full Name')).toBeVisible();
  });

  test("a signed-in person's favourite shows filled, and its heart removes it (decision 137)", async ({ page, user, baseURL }) => {
    await signUpViaApi(page.request, baseURL!, user);
    const listed = (await (await page.request.get(`${baseURL}/api/teachers?limit=1`)).json()) as { items: { id: string }[] };
    const favourite = listed.items[0]!.id;
    const added = await page.request.put(`${baseURL}/api/favorites/${encodeURIComponent(favourite)}`, { headers: { origin: baseURL! } });
    expect(added.status(), await added.text()).toBe(200);
    await page.goto('/teachers', { waitUntil: 'commit' });
    const card = page.getByRole('article').filter({ has: page.locator(`a[href="/teachers/${favourite}"]`) });
    const heart = card.getByRole('button', { name: 'Remove from favorites' });
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await heart.click();
    await expect(page.getByText('Successfully deleted')).toBeVisible();
    await expect(card.getByRole('button', { name: 'Add to favorites' })).toHaveAttribute('aria-pressed', 'false');
  });

  test("a filtered list's Book trial lesson links ask about the list's language, in the HTML and once live", async ({ page }) => {
    const bookLinks = (html: string) => [...html.matchAll(/href="(\/teachers\/[^"]+\/book[^"]*)"/g)].map((match) => match[1]);
    const served = bookLinks(await (await page.request.get('/teachers?language=French')).text());
    expect(served).toHaveLength(4);
    for (const href of served) expect(href).toMatch(/\/book\?language=French$/);
    await page.goto('/teachers?language=French', { waitUntil: 'commit' });
    const links = page.locator('article a[href*="/book"]');
    await expect(links).toHaveCount(4);
    // every card hydrated (decision 137: after the page is live), its link as React renders it
    await expect.poll(() => allHydrated(links)).toBe(true);
    for (const href of await links.evaluateAll((all) => all.map((link) => link.getAttribute('href')))) expect(href).toMatch(/\/book\?language=French$/);
  });

  test('a language picked in the filters narrows the list', async ({ page }) => {
    await page.goto('/teachers', { waitUntil: 'commit' });
    await page.getByLabel('Languages').selectOption('French');
    await expect(page).toHaveURL(/\?language=French$/);
    const cards = page.getByRole('article');
    await expect(cards.first()).toBeVisible();
    for (const card of await cards.all()) await expect(card.getByText('Speaks:').locator('..')).toContainText('French');
  });
});
