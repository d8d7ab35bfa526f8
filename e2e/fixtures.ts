import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
export const screenshotDir = path.join(here, 'artifacts/screenshots');
export const SCREEN_WIDTHS = [375, 768, 1440] as const;

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

let counter = 0;
/** A new account's details, unique per call. */
export function uniqueUser(name = 'Olena Test'): TestUser {
  counter += 1;
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`;
  return { name, email: `user-${tag}@example.com`, password: `secret-${tag}1` };
}

/** Registers through the API (cookies land in the page's context, so the page is signed in). */
export async function signUpViaApi(request: APIRequestContext, baseURL: string, user: TestUser): Promise<void> {
  const response = await request.post(`${baseURL}/api/auth/sign-up/email`, {
    data: user,
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Signs in through the API. */
export async function signInViaApi(request: APIRequestContext, baseURL: string, user: TestUser): Promise<void> {
  const response = await request.post(`${baseURL}/api/auth/sign-in/email`, {
    data: { email: user.email, password: user.password },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * axe-core on the page as it is now (open modals included): fails on any violation. It
 * looks at the page at rest: a toast fading in or out (react-hot-toast) is half
 * transparent, and axe would measure its text blended with the page. So, for the check
 * only, motion is reduced (global.css then cuts every animation to an instant, so a toast
 * that comes or goes during the check is there or gone, never half), and it waits until no
 * finite animation has run for 150 ms (spinners run forever). Nothing is excluded: a toast
 * on screen is checked like the rest of the page.
 */
export async function checkA11y(page: Page, context = ''): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  let quietPolls = 0;
  await expect
    .poll(
      async () => {
        const moving = await page.evaluate(() =>
          document
            .getAnimations()
            .some((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity),
        );
        quietPolls = moving ? 0 : quietPolls + 1;
        return quietPolls;
      },
      { message: `the page settles before axe ${context}`, intervals: [50], timeout: 10_000 },
    )
    .toBeGreaterThanOrEqual(3);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  await page.emulateMedia({ reducedMotion: null });
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/** Screenshots of the page at 375, 768 and 1440 px wide, kept as test artifacts. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  const original = page.viewportSize();
  for (const width of SCREEN_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/**
 * Journeys act as a person does: a navigation resolves when the document arrives (Playwright's
 * `load`), and the next step clicks a control as soon as it is visible, hydrated or not
 * (issue 28). Every control must therefore do what it says before the app is live: links and
 * forms that the server answers, which the app takes over once it runs (decision 105).
 */
/**
 * A form a control opens, wherever the tap led: its modal once the app runs, or the server's
 * page of the same name (`/login`, `/register`, `/teachers/:id/book`) when the tap came before
 * (decision 105). Journeys fill it the same way either way.
 */
export function formOf(page: Page, name: string): Locator {
  return page
    .getByRole('dialog', { name })
    .or(page.getByRole('main').filter({ has: page.getByRole('heading', { level: 1, name }) }));
}

/**
 * For the tests of what only the running app has (a modal's focus trap, scroll lock, Escape,
 * its validation as one types): waits until the page is live. Journeys never call it — they
 * act on what they see, and first-tap.spec.ts and auth.spec.ts cover taps made before.
 */
export async function whenAppRuns(page: Page): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
}

export const test = base.extend<{ user: TestUser }>({
  // A fresh user (not yet registered) for each test that asks for one.
  // eslint-disable-next-line no-empty-pattern
  user: async ({}, use) => {
    await use(uniqueUser());
  },
});
export { expect };
