import { crc32, deflateSync } from 'node:zlib';
import { expect, test } from './fixtures';
import { signInAsNewAdmin } from './admin-session';

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

test('an admin adds a teacher with a photo, publishes, edits the price and hides them', async ({ page, browser, baseURL }) => {
  const surname = `Zephyrine${Date.now().toString(36)}`;
  await signInAsNewAdmin(page, baseURL!);

  await page.goto('/admin/teachers');
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
  const visitor = await browser.newPage();
  const search = `/teachers?q=${surname}`;
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
});
