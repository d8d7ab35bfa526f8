import { checkA11y, expect, shoot, signUpViaApi, test } from './fixtures';

// Issue 4: a trial lesson is booked from an expanded card and stored on the server.

test('book a trial lesson as a visitor', async ({ page }) => {
  await page.goto('/teachers');
  const card = page.getByRole('article').first();
  await card.getByRole('button', { name: 'Read more' }).click();
  const opener = card.getByRole('button', { name: 'Book trial lesson' });
  await opener.click();

  const dialog = page.getByRole('dialog', { name: 'Book trial lesson' });
  await expect(dialog).toBeVisible();
  const question = dialog.getByRole('group', { name: /^What is your main reason for learning .+\?$/ });
  await expect(question.getByRole('radio')).toHaveCount(5);
  await expect(dialog.getByText('Your teacher')).toBeVisible();
  await checkA11y(page, 'booking modal');
  await shoot(page, 'booking-modal');

  // validation: nothing on open, the contract's messages on submit
  await expect(dialog.getByText('Full name is required field')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Book' }).click();
  await expect(dialog.getByText('Choose a reason')).toBeVisible();
  await expect(dialog.getByText('Full name is required field')).toBeVisible();
  await expect(dialog.getByText("Email can't be is empty")).toBeVisible();
  await expect(dialog.getByText('Phone number is required field')).toBeVisible();
  await checkA11y(page, 'booking modal with errors');
  await shoot(page, 'booking-modal-errors');

  await question.getByRole('radio', { name: 'Culture, travel or hobby' }).check();
  await dialog.getByLabel('Full Name').fill('Olena Test');
  await dialog.getByLabel('Email').fill('olena@example.com');
  await dialog.getByLabel('Phone number').fill('+380 67 123 4567');
  const response = page.waitForResponse((r) => r.url().endsWith('/api/bookings') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Book' }).click();
  expect((await response).status()).toBe(201);
  await expect(page.getByText('Thanks for you choice')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
});

test("a signed-in user's name and e-mail are filled in; Escape closes", async ({ page, user, baseURL }) => {
  await signUpViaApi(page.request, baseURL!, user);
  await page.goto('/teachers');
  const card = page.getByRole('article').first();
  await card.getByRole('button', { name: 'Read more' }).click();
  await card.getByRole('button', { name: 'Book trial lesson' }).click();
  const dialog = page.getByRole('dialog', { name: 'Book trial lesson' });
  await expect(dialog.getByLabel('Full Name')).toHaveValue(user.name);
  await expect(dialog.getByLabel('Email')).toHaveValue(user.email);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
