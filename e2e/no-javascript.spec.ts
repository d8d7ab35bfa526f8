import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, signUpViaApi, test, uniqueUser } from './fixtures';
import { fullName, TEACHERS, type TeacherRecord } from './catalogue-data';
import { linkFromOutbox } from './outbox';

// Issue 9, "it works without JavaScript": the server-rendered catalogue browses, filters and
// pages with scripts off (docs/decisions/090).

const cards = (page: Page) => page.getByRole('article');
const names = (page: Page) => cards(page).getByRole('heading', { level: 2 }).allTextContents();

/** With scripts off nothing hydrates: wait for the document itself, not for <html data-hydrated>. */
async function open(page: Page, url: string) {
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForLoadState('load');
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the catalogue filters by its form, pages by its links, opens Read more and a teacher by the name', async ({ page }) => {
    const language = 'French';
    const french = TEACHERS.filter((t) => t.languages.includes(language));
    expect(french.length, 'enough French teachers for two pages').toBeGreaterThan(4);

    await open(page, '/teachers');
    await expect(cards(page)).toHaveCount(4);
    await expect(page.getByText(`${TEACHERS.length} teachers`)).toBeVisible();
    // (axe needs scripts: the same markup is checked with them in catalogue.spec.ts and search.spec.ts)

    // filter: choose, then submit the form (nothing applies on change without scripts)
    await page.getByLabel('Languages').selectOption(language);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page).toHaveURL(/[?&]language=French(&|$)/);
    await expect(page.getByText(`${french.length} teachers`)).toBeVisible();
    await expect(page.getByLabel('Languages')).toHaveValue(language);
    const firstPage = await names(page);
    expect(firstPage).toHaveLength(4);
    for (const name of firstPage) expect(french.map(fullName)).toContain(name);

    // Load more: a link to the page of the next teachers
    await page.getByRole('link', { name: 'Load more' }).click();
    await expect(page).toHaveURL(/[?&]language=French&cursor=[^&]+$/);
    await expect(cards(page).first()).toBeVisible();
    const secondPage = await names(page);
    expect(secondPage.length).toBe(Math.min(4, french.length - 4));
    for (const name of secondPage) {
      expect(french.map(fullName)).toContain(name);
      expect(firstPage).not.toContain(name);
    }

    // Read more: a <details> the browser opens by itself
    const card = cards(page).first();
    const teacher = french.find((t) => fullName(t) === secondPage[0]) as TeacherRecord;
    await expect(card.getByText(teacher.experience)).toBeHidden();
    await expect(card.locator('summary')).toHaveText('Read more', { useInnerText: true });
    await card.locator('summary').click();
    await expect(card.locator('details')).toHaveAttribute('open', '');
    // the label follows the open state without scripts (CSS on [open])
    await expect(card.locator('summary')).toHaveText('Show less', { useInnerText: true });
    await expect(card.getByText(teacher.experience)).toBeVisible();
    await expect(card.getByRole('list', { name: 'Reviews' })).toBeVisible();

    // the name leads to the teacher's page
    await card.getByRole('link', { name: fullName(teacher) }).click();
    await expect(page).toHaveURL(/\/teachers\/[^/?]+$/);
    await expect(page.getByRole('heading', { level: 1, name: fullName(teacher) })).toBeVisible();
  });

  test('below 768 px the filter panel stays open (nothing could unfold it) and the form still applies', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await open(page, '/teachers?q=a');
    await expect(page.getByRole('button', { name: /^Filters \(/ })).toBeHidden();
    await expect(page.getByLabel('Level of knowledge')).toBeVisible();
    const apply = page.getByRole('button', { name: 'Apply filters' });
    await expect(apply).toBeVisible();
    await page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' });
    await apply.click();
    await expect(page).toHaveURL(/[?&]sort=price-asc(&|$)/);
    await expect(page.getByLabel('Sort by').locator('option:checked')).toHaveText('Price: low to high');
    await expect(page.getByRole('searchbox', { name: 'Search teachers' })).toHaveValue('a');
  });

  test('a heart leads to Registration, which adds the teacher; Log in comes back to the page (decision 105)', async ({ page, context }) => {
    const person = uniqueUser('Nojs Person');
    await open(page, '/teachers');
    const first = cards(page).first();
    const teacher = (await first.getByRole('heading', { level: 2 }).textContent()) ?? '';
    const heart = (scope = cards(page).first()) => scope.getByRole('button', { name: /favorites$/ });
    await heart(first).click();

    // a visitor: the Login page, with the way back and the teacher
    await expect(page).toHaveURL(/\/login\?next=%2Fteachers&favorite=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();
    await expect(page.getByText('You need to authenticate')).toBeVisible();
    await page.getByRole('link', { name: 'Registration' }).last().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Registration' })).toBeVisible();

    // refused: the page again, each field named, what was typed kept (never the password)
    await page.getByRole('textbox', { name: 'Name' }).fill(person.name);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Registration' }).click();
    await expect(page.getByText('Invalid email')).toBeVisible();
    await expect(page.getByText('Too short password')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue(person.name);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Registration' }).click();
    // back where the heart was, signed in, the teacher a favourite
    await expect(page).toHaveURL(/\/teachers$/);
    await expect(page.getByText(`Welcome ${person.name}`)).toBeVisible();
    const card = page.getByRole('article', { name: teacher });
    await expect(heart(card)).toHaveAttribute('aria-pressed', 'true');

    // the heart as a form, signed in: removes, and adds again
    await heart(card).click();
    await expect(page).toHaveURL(/\/teachers$/);
    await expect(heart(page.getByRole('article', { name: teacher }))).toHaveAttribute('aria-pressed', 'false');
    await heart(page.getByRole('article', { name: teacher })).click();
    await expect(heart(page.getByRole('article', { name: teacher }))).toHaveAttribute('aria-pressed', 'true');

    // signed out (Logout needs scripts: the cookies go), Log in from the header comes back here
    await context.clearCookies();
    await open(page, '/teachers?language=French');
    await page.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fteachers%3Flanguage%3DFrench$/);
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.getByText('Email or password is incorrect')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(person.email);
    await page.getByLabel('Password', { exact: true }).fill(person.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(/\/teachers\?language=French$/);
    await expect(page.getByText(`Welcome ${person.name}`)).toBeVisible();
  });

  test('Forgot password? from /login: the page, a refusal, the same answer, the reset link e-mailed (decision 105)', async ({ page, request, baseURL }) => {
    test.setTimeout(90_000); // the outbox may take up to 45 s under load
    const person = uniqueUser('Nojs Forgetful');
    await signUpViaApi(request, baseURL!, person); // another context: this page stays signed out
    // an address of this test's own: better-auth allows 3 reset requests per address per 60 s
    const [a, b] = [randomBytes(2).toString('hex'), randomBytes(2).toString('hex')];
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': `2001:db8:${a}:${b}::1` });

    await open(page, '/login?next=%2Fteachers');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(page).toHaveURL(/\/forgot-password\?next=%2Fteachers$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
    await expect(page.getByText('Enter the email you registered with, and we will send you a link to set a new password.')).toBeVisible();

    // refused: the page again, the field named, what was typed kept
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByText('Invalid email')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('not-an-email');

    // the answer, the same for an address with no account: nobody learns who has one
    await page.getByLabel('Email').fill(`nobody-${randomBytes(4).toString('hex')}@example.com`);
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByRole('status')).toHaveText('If an account exists, we sent a link');
    await open(page, '/forgot-password?next=%2Fteachers');
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByRole('status')).toHaveText('If an account exists, we sent a link');
    await expect(page.getByLabel('Email')).toHaveCount(0);

    // the e-mail arrives with the reset link
    const link = await linkFromOutbox(person.email, /^Subject: Reset your LearnLingo password/m, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/);
    expect(new URL(link).origin).toBe(new URL(baseURL!).origin);

    // "Back to Log In" leads to the Login page, the way back kept
    await page.getByRole('link', { name: 'Back to Log In' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fteachers$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Login' })).toBeVisible();

    // the link sets a new password without scripts too: refused once, then taken, and spent
    const { pathname, search } = new URL(link);
    await open(page, pathname + search);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByText('Too short password')).toBeVisible();
    await page.getByLabel('New password').fill('brand-new-pass-2');
    await page.getByRole('button', { name: 'Save password' }).click();
    await expect(page.getByRole('status')).toHaveText('Your password is changed. Log in with the new one.');
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('brand-new-pass-2');
    await page.getByRole('button', { name: 'Log In' }).click();

    // /account's name form, then Logout, answered by the server
    await open(page, '/account');
    await page.getByRole('textbox', { name: 'Name' }).fill('');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('textbox', { name: 'Name' }).fill('Nojs Renamed');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('status')).toHaveText('Your name is changed');
    await expect(page.getByRole('link', { name: 'Welcome Nojs Renamed' })).toBeVisible();
    await open(page, '/teachers');
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/teachers$/);
    await expect(page.getByRole('link', { name: 'Log in' })).toBeVisible();
  });

  test('a visitor books a trial lesson on the booking page and confirms it by the e-mailed link (decision 105)', async ({ page }) => {
    // a teacher no other booking journey books (they take the list's first four), its last free time
    const teacher = TEACHERS.at(-1) as TeacherRecord;
    const email = `nojs-booker-${randomBytes(4).toString('hex')}@example.com`;
    await open(page, `/teachers?${new URLSearchParams({ q: fullName(teacher) }).toString()}`);
    const card = page.getByRole('article', { name: fullName(teacher) });
    await card.locator('summary').click();
    await card.getByRole('link', { name: 'Book trial lesson' }).click();
    await expect(page).toHaveURL(/\/teachers\/[^/?]+\/book$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Book trial lesson' })).toBeVisible();
    await expect(page.getByText(fullName(teacher), { exact: true })).toBeVisible();

    // the zone: its own form (nothing applies on change without scripts)
    await page.getByLabel('Times shown in').selectOption('Europe/Kyiv');
    await page.getByRole('button', { name: 'Show times' }).click();
    await expect(page).toHaveURL(/\/book\?tz=Europe%2FKyiv$/);
    await expect(page.getByLabel('Times shown in')).toHaveValue('Europe/Kyiv');

    // refused: the page again, each field named with the modal's words, what was typed kept
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    for (const message of ['Choose a reason', 'Choose a time for your lesson', 'Full name is required field', "Email can't be is empty", 'Phone number is required field']) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await page.getByRole('radio', { name: 'Culture, travel or hobby' }).check();
    await page.getByLabel('Full Name').fill('Nojs Booker');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Phone number').fill('+380 67 123 4567');
    // the days are disclosures (the first one open): open the last, take its last time
    const day = page.locator('details').filter({ has: page.locator('input[name="start"]') }).last();
    await day.locator('summary').click();
    const time = day.getByRole('group').getByRole('radio').last();
    await time.check({ force: true });
    const start = await time.getAttribute('value');
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(page.getByText('Invalid email')).toBeVisible();
    await expect(page.getByLabel('Full Name')).toHaveValue('Nojs Booker');
    await expect(page.getByRole('radio', { name: 'Culture, travel or hobby' })).toBeChecked();
    await expect(page.locator(`input[name="start"][value="${start}"]`)).toBeChecked();

    // booked: the confirmation, a hold until the e-mailed link is used (decision 102)
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Check your e-mail to confirm' })).toBeVisible();
    await expect(page.getByText('Thanks for you choice')).toBeVisible();
    await expect(page.getByText(/We have e-mailed you a link to confirm this lesson/)).toBeVisible();

    const link = await linkFromOutbox(email, /^Subject: Confirm your .*trial lesson/m, /https?:\/\/\S+\/bookings\/[A-Za-z0-9_-]{43}/);
    await open(page, new URL(link).pathname);
    const lesson = page.getByRole('article');
    await expect(lesson.getByText('Waiting for your confirmation')).toBeVisible();
    await lesson.getByRole('button', { name: 'Confirm lesson' }).click();
    await expect(page).toHaveURL(/\/bookings\/[A-Za-z0-9_-]{43}\?confirmed$/);
    await expect(page.getByText('Your lesson is confirmed')).toBeVisible();
    await expect(lesson.getByText('Upcoming')).toBeVisible();
  });
});

test('with JavaScript the same form applies on change: no "Apply filters" at any width, the panel folds below 768 px only', async ({ page }) => {
  await page.goto('/teachers');
  await expect(cards(page)).toHaveCount(4);
  const apply = page.getByRole('button', { name: 'Apply filters', includeHidden: true });
  const toggle = page.getByRole('button', { name: /^Filters \(/, includeHidden: true });
  for (const width of [375, 768, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(apply, `at ${width} px`).toBeHidden();
    if (width < 768) await expect(toggle, `at ${width} px`).toBeVisible();
    else await expect(toggle, `at ${width} px`).toBeHidden();
  }
});
