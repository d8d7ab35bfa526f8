import type { Page } from '@playwright/test';
import { E2E_ADMIN as ADMIN } from './admin-account';
import { expect } from './fixtures';

/** Signs the page's browser context in as the school admin (through the API, as the fixtures do). */
export async function signInAsNewAdmin(page: Page, baseURL: string): Promise<void> {
  const response = await page.request.post(`${baseURL}/api/auth/sign-in/email`, {
    data: ADMIN,
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
}
