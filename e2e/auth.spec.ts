import { test, expect, formOf, whenAppRuns } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * Fills and submits the form in front of the person: the modal once the app runs, or the
 * server's /login or /register page when the header's link was tapped before (decision 105).
 */
async function fillAndSubmit(page: Page, modal: 'Login' | 'Registration', values: Record<string, string>) {
  const dialog = formOf(page, modal);
  await expect(dialog).toBeVisible();
  for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label, { exact: true }).fill(value);
  await dialog.getByRole('button', { name: modal === 'Login' ? 'Log In' : 'Registration' }).click();
  return dialog;
}

// Issue 3: register → greeted → reload → logout → wrong password → login → same e-mail again.
test('an account from registration to a second registration with the same e-mail', async ({ page, user }) => {
  await page.goto('/');
  const header = page.getByRole('banner');

  await header.getByRole('link', { name: 'Registration' }).click();
  let dialog = await fillAndSubmit(page, 'Registration', { Name: user.name, Email: user.email, Password: user.password });
  await expect(page.getByText('Signup successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(header.getByText(`Welcome ${user.name}`)).toBeVisible();
  await expect(header.getByRole('link', { name: 'Favorites' })).toBeVisible();

  await page.reload();
  await expect(header.getByText(`Welcome ${user.name}`)).toBeVisible();

  await page.goto('/teachers');
  await header.getByRole('button', { name: 'Logout' }).click();
  await expect(page.getByText('Logout successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(header.getByRole('link', { name: 'Favorites' })).toHaveCount(0);

  await header.getByRole('link', { name: 'Log in' }).click();
  dialog = await fillAndSubmit(page, 'Login', { Email: user.email, Password: `${user.password}x` });
  await expect(page.getByText('Email or password is incorrect')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue(user.email);

  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText('Sign in successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(header.getByText(`Welcome ${user.name}`)).toBeVisible();

  await header.getByRole('button', { name: 'Logout' }).click();
  await expect(header.getByRole('link', { name: 'Registration' })).toBeVisible();
  // the toast sits top right, over the header's buttons: clicks go through it
  await header.getByRole('link', { name: 'Registration' }).click();
  dialog = await fillAndSubmit(page, 'Registration', { Name: 'Someone Else', Email: user.email, Password: 'another-pass1' });
  await expect(page.getByText('Email in use')).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveValue('Someone Else');
});

test('a visitor who opens /favorites lands on the home page', async ({ page }) => {
  await page.goto('/favorites');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Unlock your potential');
});

test('validation messages show on blur and on change, not on load', async ({ page }) => {
  await page.goto('/');
  await whenAppRuns(page); // the modal's focus and Escape are under test (the page's form: auth-form-routes.test)
  await page.getByRole('banner').getByRole('link', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Login' });
  const email = dialog.getByLabel('Email', { exact: true });
  await expect(email).toBeFocused();
  await expect(dialog.getByText("Email can't be is empty")).toHaveCount(0);
  await email.fill('ann@');
  await expect(dialog.getByText('Invalid email')).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).focus();
  await dialog.getByLabel('Password', { exact: true }).blur();
  await expect(dialog.getByText("Password can't be is empty")).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

// Issue 28: a tap before the app has hydrated is not lost (decision 105). The app's script is
// held back, so the page stays server HTML until the journey lets it go.
test('Log in, Registration and a heart work the moment they are visible, before hydration', async ({ page, user }) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });

  await page.goto('/teachers?language=French', { waitUntil: 'commit' });
  const header = page.getByRole('banner');
  await header.getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fteachers%3Flanguage%3DFrench$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
  // Log in's icon is its own CSS mask (the arrow entering); Logout's is checked below
  const icon = (name: string, role: 'link' | 'button') =>
    header.getByRole(role, { name }).evaluate((element) => getComputedStyle(element, '::before').maskImage);
  expect(await icon('Log in', 'link')).toContain('M15 3h4');

  await page.goto('/', { waitUntil: 'commit' });
  await header.getByRole('link', { name: 'Registration' }).click();
  await expect(page).toHaveURL(/\/register\?next=%2F$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Registration' })).toBeVisible();

  await page.goto('/teachers', { waitUntil: 'commit' });
  const card = page.getByRole('article').first();
  const teacher = (await card.getByRole('heading', { level: 2 }).textContent()) ?? '';
  await card.getByRole('button', { name: 'Add to favorites' }).click();
  await expect(page).toHaveURL(/\/login\?next=%2Fteachers&favorite=/);
  await expect(page.getByText('You need to authenticate')).toBeVisible();

  // now the app runs: the page's form checks the fields, then posts; the teacher is added
  release();
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  await page.getByRole('link', { name: 'Registration' }).last().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Registration' })).toBeVisible();
  await page.getByRole('button', { name: 'Registration' }).click();
  await expect(page.getByText('Name is required field')).toBeVisible();
  await expect(page).toHaveURL(/\/register\?/);
  await page.getByLabel('Name').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Registration' }).click();
  await expect(page).toHaveURL(/\/teachers$/);
  await expect(header.getByText(`Welcome ${user.name}`)).toBeVisible();
  await expect(page.getByRole('article', { name: teacher }).getByRole('button', { name: 'Remove from favorites' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(await icon('Logout', 'button')).toContain('M9 21H5');
});
