import { crc32, deflateSync } from 'node:zlib';
import { E2E_ADMIN as ADMIN } from './admin-account';
import { expect, formOf, signUpViaApi, test, uniqueUser } from './fixtures';
import { linkFromOutbox } from './outbox';

/*
 * Issue 24 as it describes it (decisions 109-111), one journey in Chromium: the school's first
 * admin comes from the command line (`npm run admin -- add`, run by start-server.mjs before the
 * main server holds its DATA_DIR), sets a password from the e-mail in the outbox and opens the
 * console; adds a teacher with a photo, who appears on /teachers once published; edits the
 * price and the card shows it; invites a teacher to that profile, who sets a password from
 * their e-mail and signs in; hides the teacher (gone, 410); a learner who types /admin gets the
 * not-found page.
 */

/** A `size` × `size` PNG of one colour (RGB), made here: the upload's bytes, as a camera's would be. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test('the first admin from the command line runs the catalogue: a teacher with a photo, a price, an invitation, hidden; a learner gets the 404', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const surname = `Zephyrine${Date.now().toString(36)}`;
  const visitor = await browser.newPage();
  const search = `/teachers?q=${surname}`;

  // the admin: the e-mailed link sets the password, then the console is one click away. (A retried
  // run finds the password set and the link spent: it only signs in.)
  const alreadySet = (await page.request.post('/api/auth/sign-in/email', { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseURL! } })).ok();
  if (alreadySet) {
    await page.context().clearCookies();
    await page.goto('/login');
  } else {
    const welcome = new URL(await linkFromOutbox(ADMIN.email, /^Subject: Your LearnLingo admin account/m, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/));
    await page.goto(welcome.pathname + welcome.search);
    await page.getByLabel('New password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Save password' }).click();
  }
  const login = formOf(page, 'Login');
  await login.getByLabel('Email', { exact: true }).fill(ADMIN.email);
  await login.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await login.getByRole('button', { name: 'Log In' }).click();
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: `Welcome ${ADMIN.name}` })).toBeVisible();
  await header.getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'School console' })).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);

  // Add teacher, with a photo re-encoded by the server
  await page.getByRole('link', { name: 'Add teacher' }).click();
  const form = page.getByRole('form', { name: 'Add teacher' });
  await form.getByLabel('First name').fill('Quilla');
  await form.getByLabel('Last name').fill(surname);
  await form.getByLabel('Languages (comma-separated)').fill('Quenya, English');
  await form.getByLabel('Price per hour ($)').fill('31');
  await form.getByRole('checkbox', { name: 'A1 Beginner' }).check();
  await form.getByLabel('Lesson info').fill('Elvish for travellers');
  await form.getByLabel('Experience').fill('Ten years in Rivendell');
  const photo = form.getByLabel('Upload a photo');
  await expect(photo).toBeEnabled();
  await photo.setInputFiles({ name: 'quilla.png', mimeType: 'image/png', buffer: solidPng(300, [40, 160, 120]) });
  await expect(form.getByRole('img', { name: "The teacher's photo as it will be shown" })).toHaveAttribute('src', /^\/photos\/[0-9a-f]{32}-192\.webp$/);
  await form.getByRole('button', { name: 'Add teacher' }).click();
  await expect(page.getByText('Teacher added as a draft')).toBeVisible();
  const id = /\/admin\/teachers\/([A-Za-z0-9_-]+)/.exec(page.url())?.[1];
  expect(id).toBeTruthy();

  // a draft is nowhere in the catalogue
  await visitor.goto(search);
  await expect(visitor.getByRole('heading', { name: `Quilla ${surname}` })).toHaveCount(0);

  // published: on /teachers, with the uploaded photo from our origin
  const status = page.getByRole('form', { name: 'Status' });
  await status.getByLabel('Change the status to').selectOption('published');
  await status.getByRole('button', { name: 'Change status' }).click();
  await expect(status.getByText('Status changed')).toBeVisible();
  await expect(async () => {
    await visitor.goto(search);
    await expect(visitor.getByText(`Quilla ${surname}`).first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expect(visitor.locator(`img[src^="/photos/"]`).first()).toBeVisible();

  // the price edited in the console is the card's
  const card = page.getByRole('form', { name: 'Edit teacher' });
  await card.getByLabel('Price per hour ($)').fill('44');
  await card.getByRole('button', { name: 'Save changes' }).click();
  await expect(card.getByText('Saved.')).toBeVisible();
  await expect(async () => {
    await visitor.goto(search);
    await expect(visitor.getByText('44$').first()).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 10_000 });

  // invited to this profile from its edit screen: the teacher's link sets a password, they sign in (no Admin)
  const teacher = uniqueUser('Tara Teacher');
  await page.getByLabel('Teacher’s e-mail').fill(teacher.email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${teacher.email}.`)).toBeVisible();
  const invitation = new URL(await linkFromOutbox(teacher.email, /^Subject: You are invited to teach on LearnLingo/m, /https?:\/\/\S+\/invite\?token=[A-Za-z0-9_-]+/));
  const teacherPage = await browser.newPage();
  await teacherPage.goto(invitation.pathname + invitation.search);
  await expect(teacherPage.getByRole('heading', { level: 1, name: 'Your teacher account' })).toBeVisible();
  await teacherPage.getByLabel('Your name').fill(teacher.name);
  await teacherPage.getByLabel('Password', { exact: true }).fill(teacher.password);
  await teacherPage.getByRole('button', { name: 'Set password' }).click();
  await expect(teacherPage.getByText('Your password is set.')).toBeVisible();
  await teacherPage.getByRole('link', { name: 'Log in' }).last().click();
  const teacherLogin = formOf(teacherPage, 'Login');
  await teacherLogin.getByLabel('Email', { exact: true }).fill(teacher.email);
  await teacherLogin.getByLabel('Password', { exact: true }).fill(teacher.password);
  await teacherLogin.getByRole('button', { name: 'Log In' }).click();
  const teacherHeader = teacherPage.getByRole('banner');
  await expect(teacherHeader.getByRole('link', { name: `Welcome ${teacher.name}` })).toBeVisible();
  await expect(teacherHeader.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await teacherPage.close();
  await page.reload();
  await expect(page.getByText(`The profile ${id} belongs to ${teacher.name} (${teacher.email}).`)).toBeVisible();

  // hidden with a reason: gone from /teachers, and its page answers 410
  await status.getByLabel('Change the status to').selectOption('hidden');
  await status.getByRole('button', { name: 'Change status' }).click();
  await expect(status.getByText('Say why the teacher is hidden')).toBeVisible();
  await status.getByLabel('Reason (required to hide)').fill('On leave until spring');
  await status.getByRole('button', { name: 'Change status' }).click();
  await expect(status.getByText('On leave until spring')).toBeVisible();
  await expect(async () => {
    await visitor.goto(search);
    await expect(visitor.getByText(`Quilla ${surname}`)).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  const gone = await visitor.goto(`/teachers/${id}`);
  expect(gone?.status()).toBe(410);
  await visitor.close();

  // the Activity log has each change, in words
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Activity' }).click();
  for (const action of ['Added a teacher', 'Published the teacher', 'Edited the teacher', 'Accepted an invitation', 'Hid the teacher']) {
    await expect(page.getByText(action, { exact: true }).first()).toBeVisible();
  }

  // a learner who types /admin: the not-found page, with its 404
  const learnerContext = await browser.newContext({ baseURL });
  await signUpViaApi(learnerContext.request, baseURL!, uniqueUser('Lena Learner'));
  const learnerPage = await learnerContext.newPage();
  const answer = await learnerPage.goto('/admin');
  expect(answer?.status()).toBe(404);
  await expect(learnerPage.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(learnerPage.getByRole('heading', { name: 'School console' })).toHaveCount(0);
  await learnerContext.close();
});
