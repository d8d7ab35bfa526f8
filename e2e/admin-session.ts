import type { Page } from '@playwright/test';
import { E2E_ADMIN as ADMIN } from './admin-account';
import { expect } from './fixtures';
import { linkFromOutbox } from './outbox';

/**
 * Signs the page's browser context in as the school's first admin (through the API, as the
 * fixtures do), for journeys that need an admin on the way (teach-*.spec.ts). The admin comes
 * from `npm run admin -- add` (start-server.mjs --admin) with no password: admin-console.spec.ts
 * sets it from the e-mail in the outbox as a person would. A journey that runs before it does the
 * same through the API, so either order works (the link is single use: the loser signs in).
 */
export async function signInAsNewAdmin(page: Page, baseURL: string): Promise<void> {
  const signIn = () => page.request.post(`${baseURL}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseURL } });
  if ((await signIn()).ok()) return;
  const link = new URL(await linkFromOutbox(ADMIN.email, /^Subject: Your LearnLingo admin account/m, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/));
  await page.request.post(`${baseURL}/api/auth/reset-password`, {
    data: { newPassword: ADMIN.password, token: link.searchParams.get('token') },
    headers: { origin: baseURL },
  });
  await expect.poll(async () => (await signIn()).status(), { timeout: 10_000 }).toBe(200);
}
