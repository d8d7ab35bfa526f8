import type { Browser, Page } from '@playwright/test';
import { inviteTeacher, signInAsNewAdmin } from './admin-session';
import { expect, formOf, signUpViaApi, test, uniqueUser, type TestUser } from './fixtures';
import { linkFromOutbox, mailTo } from './outbox';

/*
 * Issue 25 ("How it is shown"): an invited teacher sets hours and a week off; a learner books
 * (instant) and the teacher finds the lesson on /teach Lessons and in their own e-mail; the
 * teacher switches to "on request", accepts one request and declines another, each learner
 * sees the answer on My lessons, and the teacher's calendar feed lists the accepted lesson.
 * Everyone acts as a person does: each control is used as soon as it shows, hydrated or not
 * (a tap before the app runs opens the server's page of the same form, decision 105).
 * teach-hours.spec.ts covers what the hours do to the slots; this journey only sets them.
 */

const ZONE = 'America/Sao_Paulo';
const DAY_MS = 86_400_000;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
/** A calendar day in the teacher's zone, as the date fields take it. */
const dayIn = (instant: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
/** An instant as an iCalendar UTC time (20260301T120000Z). */
const icsTime = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

/** A signed-in learner whose address is confirmed (so a booking is not held for an e-mail link). */
async function confirmedLearner(browser: Browser, baseURL: string, name: string): Promise<{ page: Page; user: TestUser }> {
  const context = await browser.newContext({ baseURL });
  const user = uniqueUser(name);
  await signUpViaApi(context.request, baseURL, user);
  const verify = await linkFromOutbox(user.email, /^Subject: Confirm your e-mail for LearnLingo/m, /https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/);
  expect((await context.request.get(verify, { maxRedirects: 0 })).status()).toBeLessThan(400);
  return { page: await context.newPage(), user };
}

/**
 * From the teacher's page, Book trial lesson: the first free time shown (a time booked or held
 * is no longer offered, so each learner's first is a new one). Answers its start (UTC ISO).
 */
async function book(page: Page, teacherId: string, outcome: 'Your trial lesson is booked' | 'Your request is sent'): Promise<string> {
  await page.goto(`/teachers/${teacherId}`);
  await page.getByRole('link', { name: 'Book trial lesson' }).first().click();
  const form = formOf(page, 'Book trial lesson');
  await form.getByRole('radio', { name: 'Living abroad' }).check();
  await form.getByLabel('Phone number').fill('+380 67 123 4567');
  // (the times are styled chips over their radio buttons)
  const time = form.locator('input[name="start"]').first();
  await time.check({ force: true });
  const start = (await time.getAttribute('value'))!;
  await form.getByRole('button', { name: 'Book', exact: true }).click();
  const done = formOf(page, outcome);
  await expect(done).toBeVisible();
  if (outcome === 'Your request is sent') await expect(done.getByText(/Waiting for the teacher/)).toBeVisible();
  return start;
}

test('a teacher finds a booking in Lessons and their e-mail, answers two requests, and the feed lists the lesson', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const base = baseURL!;
  // the school invites a teacher to a profile no other journey uses
  const admin = await browser.newContext({ baseURL: base });
  const adminPage = await admin.newPage();
  await signInAsNewAdmin(adminPage, base);
  const list = (await (await adminPage.request.get('/api/teachers?limit=50')).json()) as { items: { id: string }[] };
  const teacherId = list.items[26]!.id;
  const teacher = uniqueUser('Tess Teacher');
  // three learners sign up meanwhile (their e-mails come with the invitation's)
  const learners = Promise.all([confirmedLearner(browser, base, 'Ada Instant'), confirmedLearner(browser, base, 'Ben Request'), confirmedLearner(browser, base, 'Cleo Request')]);
  const teacherContext = await browser.newContext({ baseURL: base });
  const page = await teacherContext.newPage();
  await inviteTeacher(adminPage.request, page.request, base, teacherId, teacher);
  await admin.close();

  // hours: 09:00–17:00 every day in São Paulo, lessons confirmed at once
  await page.goto('/teach/hours');
  const hours = page.getByRole('form', { name: 'Weekly hours' });
  await hours.getByLabel('Your time zone').fill(ZONE);
  for (const day of DAYS) {
    const group = hours.getByRole('group', { name: day });
    const removes = group.getByRole('button', { name: /^Remove / });
    for (let n = await removes.count(); n > 0; n -= 1) await removes.first().click();
    await group.getByRole('button', { name: `Add a range on ${day}` }).click();
  }
  await hours.getByRole('radio', { name: 'The lesson is confirmed at once' }).check();
  await hours.getByRole('button', { name: 'Save hours' }).click();
  await expect(hours.getByRole('status')).toHaveText('Saved. Learners see the new times at once.');
  // and a week off from four days ahead (the bookings below take the first free times)
  const off = page.getByRole('form', { name: 'Add time off' });
  const [first, last] = [dayIn(Date.now() + 4 * DAY_MS), dayIn(Date.now() + 10 * DAY_MS)];
  await off.getByLabel('First day off').fill(first);
  await off.getByLabel('Last day off').fill(last);
  await off.getByRole('button', { name: 'Add time off' }).click();
  await expect(page.getByRole('list', { name: 'Your time off' }).getByText(`${first} – ${last}`)).toBeVisible();

  // a learner books: confirmed at once
  const [ada, ben, cleo] = await learners;
  const adaStart = await book(ada.page, teacherId, 'Your trial lesson is booked');

  // the teacher finds it in Lessons, and in the e-mail to their account's address
  await page.getByRole('navigation', { name: 'Teaching' }).getByRole('link', { name: 'Lessons' }).click();
  const upcoming = page.getByRole('list', { name: 'Upcoming lessons' });
  const adaLesson = upcoming.getByRole('article', { name: ada.user.name });
  await expect(adaLesson.getByText('Confirmed', { exact: true })).toBeVisible();
  await expect(adaLesson.getByText('Living abroad')).toBeVisible();
  await expect(adaLesson.locator(`time[datetime="${adaStart}"]`)).toBeVisible();
  await expect(page.getByText(`Times are in your time zone, ${ZONE}.`)).toBeVisible();
  // (the time on the teacher's clock, in the subject)
  const at = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(adaStart));
  const mail = await mailTo(teacher.email, /^Subject: New lesson: .*trial lesson with Ada Instant, /m);
  expect(mail).toMatch(new RegExp(`^Subject: .*, ${at}–\\d\\d:\\d\\d \\(${ZONE.replace('/', '\\/')}\\)\\r?$`, 'm'));
  expect(mail).toContain('Learner: Ada Instant');
  expect(mail).toContain('Reason for learning: Living abroad');
  expect(mail).not.toContain(ada.user.email);
  expect(mail).toMatch(/^Content-Type: text\/calendar/m);

  // the teacher now answers each booking
  await page.getByRole('navigation', { name: 'Teaching' }).getByRole('link', { name: 'Hours' }).click();
  await hours.getByRole('radio', { name: /^It is a request: I accept or decline it/ }).check();
  await hours.getByRole('button', { name: 'Save hours' }).click();
  await expect(hours.getByRole('status')).toHaveText('Saved. Learners see the new times at once.');

  // two learners ask for two times
  const benStart = await book(ben.page, teacherId, 'Your request is sent');
  const cleoStart = await book(cleo.page, teacherId, 'Your request is sent');
  expect(new Set([adaStart, benStart, cleoStart]).size).toBe(3);

  // the teacher is e-mailed each request and follows the e-mail's link to Lessons
  const asked = await mailTo(teacher.email, /^Subject: New request: .*trial lesson with Cleo Request, /m);
  expect(asked).toMatch(/^Accept or decline it by .+: https?:\/\/\S+\/teach\/lessons\r?$/m);
  await page.goto(/https?:\/\/\S+\/teach\/lessons/.exec(asked)![0]);
  // Ben's accepted, Cleo's declined with a reason
  const requests = page.getByRole('list', { name: 'Requests waiting for your answer' });
  const benRequest = requests.getByRole('article', { name: ben.user.name });
  const cleoRequest = requests.getByRole('article', { name: cleo.user.name });
  await expect(benRequest.getByText('Waiting for your answer')).toBeVisible();
  await expect(cleoRequest.getByText(/^Answer by /)).toBeVisible();
  await benRequest.getByRole('button', { name: /^Accept: / }).click();
  await expect(upcoming.getByRole('article', { name: ben.user.name }).getByText('Confirmed', { exact: true })).toBeVisible();
  await cleoRequest.getByRole('button', { name: /^Decline: / }).click();
  const decline = page.getByRole('dialog', { name: 'Decline this request?' });
  await decline.getByLabel('Reason (optional, sent to the learner)').fill('I am at a conference that day');
  await decline.getByRole('button', { name: 'Decline request' }).click();
  await expect(decline).toHaveCount(0);
  await expect(requests.getByText('No request is waiting for your answer.')).toBeVisible();

  // each learner sees the answer on My lessons
  const seen = async (learner: Page, state: string) => {
    await learner.goto('/lessons');
    const lesson = learner.getByRole('article').first();
    await expect(lesson.getByText(state, { exact: true })).toBeVisible();
    return lesson;
  };
  const [, cleoLesson] = await Promise.all([seen(ben.page, 'Upcoming'), seen(cleo.page, 'Declined')]);
  await expect(cleoLesson.getByText(/Their reason: I am at a conference that day$/)).toBeVisible();

  // the calendar feed (its link on /teach) lists the accepted lesson, the declined one cancelled
  const feed = page.getByRole('region', { name: 'Calendar feed' });
  const getLink = feed.getByRole('button', { name: 'Get my calendar link' });
  const link = feed.getByLabel('Your private calendar link');
  await expect(getLink.or(link)).toBeVisible();
  if (await getLink.isVisible()) await getLink.click();
  const url = await link.inputValue();
  expect(url).toMatch(/^https?:\/\//);
  const calendar = await page.request.get(url);
  expect(calendar.status()).toBe(200);
  expect(calendar.headers()['content-type']).toMatch(/^text\/calendar/);
  const events = (await calendar.text()).split('BEGIN:VEVENT').slice(1);
  const event = (start: string) => events.find((e) => e.includes(`DTSTART:${icsTime(start)}`));
  expect(event(benStart), 'the accepted lesson').toMatch(/^STATUS:CONFIRMED\r?$/m);
  expect(event(adaStart), 'the instant lesson').toMatch(/^STATUS:CONFIRMED\r?$/m);
  const cleoEvent = event(cleoStart);
  if (cleoEvent) expect(cleoEvent, 'the declined request').toMatch(/^STATUS:CANCELLED\r?$/m);

  for (const context of [teacherContext, ada.page.context(), ben.page.context(), cleo.page.context()]) await context.close();
});
