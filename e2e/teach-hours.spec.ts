import { inviteTeacher, signInAsNewAdmin } from './admin-session';
import { expect, test, uniqueUser } from './fixtures';

/*
 * Issue 25: a teacher invited by the school sets their weekly hours and a week off on
 * /teach/hours, and what a learner is offered (GET /api/teachers/:id/slots, the booking
 * dialog's list) follows at once, read in the teacher's zone (Asia/Kolkata: +05:30).
 */

const ZONE = 'Asia/Kolkata';
const DAY_MS = 86_400_000;
const wall = (iso: string) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
};
const dayIn = (instant: number) => wall(new Date(instant).toISOString()).day;

test('an invited teacher sets hours and a week off; a learner’s slots follow', async ({ browser, baseURL }) => {
  // the school invites a teacher to a profile no other journey uses, and they accept
  const admin = await browser.newContext({ baseURL });
  const adminPage = await admin.newPage();
  await signInAsNewAdmin(adminPage, baseURL!);
  const list = (await (await adminPage.request.get('/api/teachers?limit=50')).json()) as { items: { id: string }[] };
  const teacherId = list.items[23]!.id;
  const teacher = uniqueUser('Hari Hours');
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await inviteTeacher(adminPage.request, page.request, baseURL!, teacherId, teacher);
  await admin.close();

  // weekly hours: 09:00–17:00 every day in Kolkata
  await page.goto('/teach/hours');
  const form = page.getByRole('form', { name: 'Weekly hours' });
  const save = form.getByRole('button', { name: 'Save hours' });
  await expect(save).toBeEnabled();
  await form.getByLabel('Your time zone').fill(ZONE);
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
    const group = form.getByRole('group', { name: day });
    const removes = group.getByRole('button', { name: /^Remove / });
    for (let n = await removes.count(); n > 0; n -= 1) await removes.first().click();
    await group.getByRole('button', { name: `Add a range on ${day}` }).click();
  }
  await form.getByLabel('Minimum notice (hours)').fill('12');
  await form.getByLabel('How far ahead learners may book (days)').fill('14');
  await save.click();
  await expect(form.getByRole('status')).toHaveText('Saved. Learners see the new times at once.');

  const slots = async () => ((await (await page.request.get(`/api/teachers/${teacherId}/slots`)).json()) as { slots: string[] }).slots;
  const before = await slots();
  expect(before.length).toBeGreaterThan(0);
  expect(new Set(before.map((s) => wall(s).time))).toEqual(new Set(['09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00']));

  // a week off, from three days ahead (in the teacher's zone), with a reason
  const now = Date.now();
  const first = dayIn(now + 3 * DAY_MS);
  const last = dayIn(now + 9 * DAY_MS);
  const off = page.getByRole('form', { name: 'Add time off' });
  await off.getByLabel('First day off').fill(first);
  await off.getByLabel('Last day off').fill(last);
  await off.getByLabel(/^Reason/).fill('A week by the sea');
  await off.getByRole('button', { name: 'Add time off' }).click();
  await expect(page.getByRole('list', { name: 'Your time off' }).getByText(`${first} – ${last}`)).toBeVisible();

  const after = await slots();
  const days = new Set(after.map((s) => wall(s).day));
  for (let d = 3; d <= 9; d += 1) expect(days.has(dayIn(now + d * DAY_MS)), dayIn(now + d * DAY_MS)).toBe(false);
  // the days around it still have their hours
  expect(days.has(dayIn(now + 2 * DAY_MS))).toBe(true);
  expect(days.has(dayIn(now + 10 * DAY_MS))).toBe(true);
  expect(after.every((s) => before.includes(s))).toBe(true);

  // both tabs are the server's HTML (a form that shows before the app runs); anyone else gets 404
  for (const [path, form] of [['/teach/hours', 'Weekly hours'], ['/teach/profile', 'Your profile']] as const) {
    const html = await page.request.get(path);
    expect(html.status(), path).toBe(200);
    expect(await html.text(), path).toContain(`aria-label="${form}"`);
  }
  expect(await (await page.request.get('/teach/hours')).text()).toContain(`value="${ZONE}"`);
  expect((await browser.newContext({ baseURL }).then((visitor) => visitor.request.get('/teach/hours'))).status()).toBe(404);

  // the preview shows the same week in another zone
  await page.getByRole('combobox', { name: 'A learner in' }).selectOption('America/New_York');
  await expect(page.getByRole('list', { name: 'Free times in America/New_York' })).toBeVisible();
  await context.close();
});
