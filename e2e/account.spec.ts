import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { checkA11y, expect, formOf, shoot, signUpViaApi, test, whenAppRuns, type TestUser } from './fixtures';
import { linkFromOutbox } from './outbox';

// Issue 10, accounts: forgot password, /account, deleting the account, one session across tabs,
// and the heart that asked a visitor to sign in.

/** The reset link of the newest .eml addressed to `email`. */
const resetLinkFor = (email: string) =>
  linkFromOutbox(email, /^Subject: Reset your LearnLingo password/m, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/);

/**
 * A client address of the test's own (a /64 of IPv6's documentation prefix: the rate limit
 * keys IPv6 clients by /64), sent as X-Forwarded-For, which the e2e server believes from
 * loopback (TRUST_PROXY in playwright.config.ts). Rate limits then count this test's requests
 * alone: better-auth allows 3 reset requests per address per 60 s, so a retry or
 * `--repeat-each` from the one address of the run would be refused.
 */
function ownClientAddress(): string {
  const [a, b] = [randomBytes(2).toString('hex'), randomBytes(2).toString('hex')];
  return `2001:db8:${a}:${b}::1`;
}

/**
 * Logs in through the form in front of the person: the Login modal once the app runs, the
 * /login page when what opened it was tapped before (decision 105); both return the person
 * to where they were.
 */
async function logIn(page: Page, email: string, password: string) {
  const form = formOf(page, 'Login');
  await expect(form).toBeVisible();
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log In' }).click();
  return form;
}

test('forgot password: the link from the outbox sets a new password, which then signs in (once)', async ({
  page,
  request,
  user,
  baseURL,
}) => {
  test.setTimeout(120_000); // the outbox may take up to 45 s under load (resetLinkFor)
  await signUpViaApi(request, baseURL!, user); // another context: this page stays signed out
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': ownClientAddress() });
  await page.goto('/');
  await whenAppRuns(page); // once the app runs, "Forgot password?" opens the modal (the /forgot-password page before: decision 105)
  const header = page.getByRole('banner');
  await header.getByRole('link', { name: 'Log in' }).click();
  const login = page.getByRole('dialog', { name: 'Login' });
  await login.getByRole('link', { name: 'Forgot password?' }).click();

  const forgot = page.getByRole('dialog', { name: 'Forgot password' });
  await expect(forgot.getByLabel('Email', { exact: true })).toBeFocused();
  await checkA11y(page, 'in the Forgot password modal');
  await shoot(page, 'forgot-password');
  await forgot.getByLabel('Email', { exact: true }).fill(user.email);
  await forgot.getByRole('button', { name: 'Send link' }).click();
  await expect(forgot.getByRole('status')).toHaveText('If an account exists, we sent a link');
  await checkA11y(page, 'after the link was sent');

  const link = await resetLinkFor(user.email);
  expect(new URL(link).origin).toBe(new URL(baseURL!).origin);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  const password = page.getByLabel('New password', { exact: true });
  await password.fill('12345678');
  await expect(page.getByText('Must contain at least one letter')).toBeVisible();
  await checkA11y(page, 'on /reset-password with an error shown');
  await shoot(page, 'reset-password');
  const newPassword = `${user.password}-new`;
  await password.fill(newPassword);
  await page.getByRole('button', { name: 'Save password' }).click();
  await expect(page.getByText('Your password is changed. Log in with the new one.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // the Login modal is open: the old password no longer works, the new one does
  await logIn(page, user.email, user.password);
  await expect(page.getByText('Email or password is incorrect')).toBeVisible();
  await logIn(page, user.email, newPassword);
  await expect(header.getByRole('link', { name: `Welcome ${user.name}` })).toBeVisible();

  // the link works once: used, it says so at once (the server checked it), with no form to fill in vain
  const used = await page.goto(new URL(link).pathname + new URL(link).search);
  expect(used?.status()).toBe(404);
  await expect(page.getByRole('alert')).toHaveText('This link is invalid or has expired. Ask for a new one.');
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await checkA11y(page, 'on /reset-password with a used link');
  await shoot(page, 'reset-password-invalid');
});

test('/account: the name and the password change; the header follows; the new password signs in', async ({
  page,
  user,
  baseURL,
}) => {
  await signUpViaApi(page.request, baseURL!, user);
  await page.goto('/');
  const header = page.getByRole('banner');
  await header.getByRole('link', { name: `Welcome ${user.name}` }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  // a new account's e-mail is not confirmed yet: the quiet note
  await expect(page.getByText(/Please confirm your email/)).toBeVisible();
  await checkA11y(page, 'on /account');
  await shoot(page, 'account');

  const name = page.getByRole('textbox', { name: 'Name' });
  await name.fill('Olena Renamed');
  await page.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your name is changed')).toBeVisible();
  await expect(header.getByRole('link', { name: 'Welcome Olena Renamed' })).toBeVisible();
  await page.reload();
  await expect(header.getByRole('link', { name: 'Welcome Olena Renamed' })).toBeVisible();

  await page.getByLabel('Current password', { exact: true }).fill('wrong-pass-1');
  await page.getByLabel('New password', { exact: true }).fill('brand-new-pass1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Wrong password')).toBeVisible();
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password is changed. Your other devices are signed out.')).toBeVisible();
  // this browser keeps its (new) session
  await page.reload();
  await expect(header.getByRole('link', { name: 'Welcome Olena Renamed' })).toBeVisible();

  await header.getByRole('button', { name: 'Logout' }).click();
  await header.getByRole('link', { name: 'Log in' }).click();
  await logIn(page, user.email, 'brand-new-pass1');
  await expect(header.getByRole('link', { name: 'Welcome Olena Renamed' })).toBeVisible();
});

test('/account: deleting the account after typing the password', async ({ page, user, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, user);
  await page.goto('/account');
  await page.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete account' });
  await expect(dialog.getByLabel('Password', { exact: true })).toBeFocused();
  await checkA11y(page, 'in the Delete account modal');
  await shoot(page, 'delete-account');
  await dialog.getByLabel('Password', { exact: true }).fill('wrong-pass-1');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Wrong password')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('Your account is deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();

  await header.getByRole('link', { name: 'Log in' }).click();
  await logIn(page, user.email, user.password);
  await expect(page.getByText('Email or password is incorrect')).toBeVisible();
  await page.goto('/account');
  await expect(page).toHaveURL(/\/$/);
});

test('logging out in one tab signs the other out within seconds', async ({ page, context, user, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, user);
  const other = await context.newPage();
  await page.goto('/teachers');
  await other.goto('/account');
  await expect(other.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: `Welcome ${user.name}` })).toBeVisible();

  await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Logout successfully')).toBeVisible();
  // the other tab, untouched: signed out, and off the signed-in-only page
  await expect(other.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible({ timeout: 5_000 });
  await expect(other).toHaveURL(/\/$/);
  await other.close();
});

test('the heart that opened the Login modal adds its teacher once signed in', async ({ page, request, baseURL }) => {
  const user: TestUser = { name: 'Heart Test', email: `heart-${Date.now()}-${process.pid}@example.com`, password: 'heart-pass-1' };
  await signUpViaApi(request, baseURL!, user);
  await page.goto('/teachers');
  const card = page.getByRole('article').nth(1);
  const name = (await card.getByRole('heading', { level: 2 }).textContent()) ?? '';
  await card.getByRole('button', { name: 'Add to favorites' }).click();
  await expect(page.getByText('You need to authenticate')).toBeVisible();
  await logIn(page, user.email, user.password);
  await expect(page.getByText('Teacher was added')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Remove from favorites' })).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('link', { name: 'Favorites' }).click();
  await expect(page.getByRole('article', { name })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('article', { name })).toBeVisible();
});
