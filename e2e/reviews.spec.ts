import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import type { Lesson } from '@learnlingo/contract';
import { expect, signInViaApi, test } from './fixtures';

/**
 * Issue 26: a learner whose lesson has ended rates it from My lessons, the lesson's teacher
 * answers from /teach, and the teacher's page and card show both. The past lesson and the
 * teacher's account are written into the run's fresh database before the server starts
 * (reviews-setup.mjs, start-server.mjs --setup).
 */
const accounts = JSON.parse(readFileSync(new URL('./reviews-accounts.json', import.meta.url), 'utf8')) as Record<
  'learner' | 'teacher',
  { name: string; email: string; password: string }
>;

const COMMENT = 'Patient and clear. <b>Not bold</b> — we practised the past tense.';

/** The learner's past lessons of reviews-setup.mjs, by their teacher's id: the journey's, then the one rated without JavaScript. */
async function pastLessons(request: APIRequestContext, baseURL: string): Promise<Lesson[]> {
  const lessons = (await (await request.get(`${baseURL}/api/bookings`)).json()) as { items: Lesson[] };
  return lessons.items.filter((l) => l.status === 'past').sort((a, b) => a.teacher.id.localeCompare(b.teacher.id));
}
const ANSWER = 'Thank you, Rita! See you next week.';

test('a learner rates an ended lesson, its teacher answers from /teach, the card and the page show both', async ({ browser, baseURL }) => {
  const learnerContext = await browser.newContext();
  const page = await learnerContext.newPage();
  await signInViaApi(page.request, baseURL!, accounts.learner);
  const lesson = (await pastLessons(page.request, baseURL!))[0];
  expect(lesson, 'the past lesson of reviews-setup.mjs').toBeDefined();
  const teacherName = `${lesson!.teacher.name} ${lesson!.teacher.surname}`;

  // the learner rates it from My lessons
  await page.goto('/lessons');
  const form = page.getByRole('region', { name: 'Rate this lesson' }).filter({ hasText: teacherName });
  await form.getByRole('radio', { name: '4 out of 5' }).check();
  await form.getByLabel('Comment (optional)').fill(COMMENT);
  await form.getByRole('button', { name: 'Send review' }).click();
  const mine = page.getByRole('region', { name: 'Your review' }).filter({ hasText: COMMENT });
  // plain text: the markup typed is shown as typed
  await expect(mine.getByText(COMMENT)).toBeVisible();
  await expect(mine.getByText('Lesson taken on LearnLingo')).toBeVisible();

  // the teacher answers from /teach
  const teacherContext = await browser.newContext();
  const teach = await teacherContext.newPage();
  await signInViaApi(teach.request, baseURL!, accounts.teacher);
  await teach.goto('/teach');
  await expect(teach).toHaveURL(/\/teach\/lessons$/);
  await teach.getByRole('navigation', { name: 'Teaching' }).getByRole('link', { name: 'Reviews' }).click();
  await expect(teach).toHaveURL(/\/teach\/reviews$/);
  const item = teach.getByRole('listitem').filter({ hasText: COMMENT });
  await item.getByLabel('Your answer (public, once)').fill(ANSWER);
  await item.getByRole('button', { name: 'Publish answer' }).click();
  await expect(item.getByText(ANSWER)).toBeVisible();
  await expect(item.getByRole('button', { name: 'Publish answer' })).toHaveCount(0);

  // the teacher's page shows the review with its answer (the server's HTML: the feed applied)
  await page.goto(`/teachers/${encodeURIComponent(lesson!.teacher.id)}`);
  const reviews = page.locator('#reviews');
  await expect(reviews.getByText(COMMENT)).toBeVisible();
  await expect(reviews.getByText(ANSWER)).toBeVisible();
  await expect(reviews.getByText(/Lesson taken on LearnLingo/).first()).toBeVisible();
  // lowest rating first, by a link (works without JavaScript too)
  await reviews.getByRole('link', { name: 'Lowest rating first' }).click();
  await expect(page).toHaveURL(/reviews=lowest/);

  // and the card in the catalogue, under Read more
  await page.goto(`/teachers?q=${encodeURIComponent(teacherName)}`);
  const card = page.getByRole('article', { name: teacherName }).first();
  await card.getByText('Read more').click();
  await expect(card.getByText(COMMENT)).toBeVisible();
  await expect(card.getByText(ANSWER)).toBeVisible();

  await learnerContext.close();
  await teacherContext.close();
});

test('without JavaScript, the learner rates an ended lesson from My lessons: the form posts and the page says so', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signInViaApi(page.request, baseURL!, accounts.learner);
  const lesson = (await pastLessons(page.request, baseURL!))[1];
  expect(lesson, 'the second past lesson of reviews-setup.mjs').toBeDefined();
  const teacherName = `${lesson!.teacher.name} ${lesson!.teacher.surname}`;

  await page.goto('/lessons');
  const form = page.getByRole('region', { name: 'Rate this lesson' }).filter({ hasText: teacherName });
  // no rating chosen: the server says so and nothing is written
  await form.getByRole('button', { name: 'Send review' }).click();
  await expect(page).toHaveURL(new RegExp(`/lessons#review-${lesson!.id}$`));
  await expect(page.getByRole('status').filter({ hasText: 'Choose a rating from 1 to 5' })).toBeVisible();

  await form.getByRole('radio', { name: '5 out of 5' }).check();
  await form.getByLabel('Comment (optional)').fill('Rated with the scripts off.');
  await form.getByRole('button', { name: 'Send review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Thank you! Your review is saved.' })).toBeVisible();
  const mine = page.getByRole('region', { name: 'Your review' }).filter({ hasText: 'Rated with the scripts off.' });
  await expect(mine.getByText('Lesson taken on LearnLingo')).toBeVisible();
  await context.close();
});
