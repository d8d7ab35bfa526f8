import { checkA11y, expect, formOf, shoot, signUpViaApi, test } from './fixtures';

// Issue 4: favourites are stored per account on the server and kept in the browser.

test('favourite a teacher, see it on /favorites, reload, logout, login, still there, remove it', async ({
  page,
  user,
  baseURL,
}) => {
  await signUpViaApi(page.request, baseURL!, user); // the page's context holds the session cookie
  await page.goto('/teachers');
  const card = page.getByRole('article').first();
  const name = (await card.getByRole('heading', { level: 2 }).textContent()) ?? '';

  const heart = card.getByRole('button', { name: 'Add to favorites' });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(card.getByRole('button', { name: 'Remove from favorites' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Teacher was added')).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('teachers'))).toContain(name.split(' ')[0]!);

  await page.getByRole('link', { name: 'Favorites' }).click();
  await expect(page).toHaveURL(/\/favorites$/);
  await expect(page.getByRole('article', { name })).toBeVisible();
  await checkA11y(page, 'on /favorites');
  await shoot(page, 'favorites');

  await page.reload();
  await expect(page.getByRole('article', { name })).toBeVisible();

  // logout clears the browser copy …
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('teachers'))).toBeNull();

  // … and signing in brings the server copy back
  await page.getByRole('link', { name: 'Log in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Login' });
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Password', { exact: true }).fill(user.password);
  await dialog.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByText(`Welcome ${user.name}`)).toBeVisible();
  await page.getByRole('link', { name: 'Favorites' }).click();
  const again = page.getByRole('article', { name });
  await expect(again).toBeVisible();

  await again.getByRole('button', { name: 'Remove from favorites' }).click();
  await expect(page.getByText('Successfully deleted')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No favorite teachers yet' })).toBeVisible();
  await checkA11y(page, 'on an empty /favorites');
  await page.getByRole('link', { name: 'Find a teacher' }).click();
  await expect(page).toHaveURL(/\/teachers$/);
  await expect(page.getByRole('article').first().getByRole('button', { name: 'Add to favorites' })).toBeVisible();
});

test('the heart while signed out asks to sign in', async ({ page }) => {
  await page.goto('/teachers');
  await page.getByRole('article').first().getByRole('button', { name: 'Add to favorites' }).click();
  await expect(page.getByText('You need to authenticate')).toBeVisible();
  // clicked as soon as it shows: the Login modal once the app runs, the /login page before (decision 105)
  await expect(formOf(page, 'Login')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
});
