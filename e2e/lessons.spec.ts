import { expect, signUpViaApi, test } from './fixtures';

// My lessons in a browser whose zone is not the server's: the server renders times in UTC,
// the browser shows its own zone once hydrated, and React finds nothing to complain about.
test.describe('My lessons away from UTC', () => {
  test.use({ timezoneId: 'Asia/Kolkata' });

  test('hydrates without an error and shows times in the browser’s zone', async ({ page, user, baseURL }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await signUpViaApi(page.request, baseURL!, user);
    await page.goto('/lessons');
    // (Chromium's name for the zone is the older Asia/Calcutta)
    await expect(page.getByText(/^Times in Asia\/(Kolkata|Calcutta) \(GMT\+5:30\)$/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No lessons yet' })).toBeVisible();
    expect(errors).toEqual([]);
  });
});
