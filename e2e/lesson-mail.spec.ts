import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { inviteTeacher, signInAsNewAdmin } from './admin-session';
import { expect, signUpViaApi, test, uniqueUser } from './fixtures';
import { linkFromOutbox } from './outbox';

// Issue 25, decision 118: a learner books an invited teacher (instant); the teacher's e-mail is
// the .eml addressed to the teacher's ACCOUNT, in their zone; the learner's calendar feed (from
// My lessons) and the teacher's list the lesson with the e-mails' UID; a cancel leaves it in the
// feeds as CANCELLED at the next SEQUENCE; a renewed feed URL answers 404.

const SHOTS_DIR = process.env.SHOTS_DIR;
const post = (request: APIRequestContext, base: string, url: string, data?: object) =>
  request.post(`${base}${url}`, { headers: { origin: base }, ...(data ? { data } : {}) });
const everyDay = (from: string, to: string) => Array.from({ length: 7 }, () => [{ from, to }]);

test('the teacher is e-mailed at their account; both calendar feeds follow the lesson and its cancel', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const base = baseURL!;
  // the school invites a teacher for a profile near the end of the list (other journeys book the first cards)
  const adminContext = await browser.newContext({ baseURL: base });
  await signInAsNewAdmin(await adminContext.newPage(), base);
  const list = (await (await adminContext.request.get(`${base}/api/teachers?limit=30`)).json()) as { items: { id: string }[] };
  const profile = list.items.at(-2)!;
  const teacher = uniqueUser('Kiran Feed');
  const teacherContext = await browser.newContext({ baseURL: base });
  await inviteTeacher(adminContext.request, teacherContext.request, base, profile.id, teacher);
  const hours = await teacherContext.request.put(`${base}/api/teach/availability`, {
    headers: { origin: base },
    data: { timeZone: 'Asia/Kolkata', weeklyHours: everyDay('00:00', '24:00'), noticeHours: 0, horizonDays: 14, bookingMode: 'instant' },
  });
  expect(hours.status(), await hours.text()).toBe(200);

  // a learner with a confirmed address books a time two days ahead (past the 12 h cut-off), from Berlin
  const learnerContext = await browser.newContext({ baseURL: base, timezoneId: 'Europe/Berlin' });
  const learner = uniqueUser('Lea Feed');
  await signUpViaApi(learnerContext.request, base, learner);
  const verify = await linkFromOutbox(learner.email, /^Subject: Confirm your e-mail for LearnLingo/m, /https?:\/\/\S+\/api\/auth\/verify-email\?token=\S+/);
  expect((await learnerContext.request.get(verify, { maxRedirects: 0 })).status()).toBeLessThan(400);
  const { slots } = (await (await learnerContext.request.get(`${base}/api/teachers/${profile.id}/slots`)).json()) as { slots: string[] };
  const start = slots[48]!;
  const booked = await post(learnerContext.request, base, '/api/bookings', {
    teacherId: profile.id,
    start,
    reason: 'Living abroad',
    fullName: learner.name,
    email: learner.email,
    phone: '+49 30 1234567',
    timeZone: 'Europe/Berlin',
  });
  expect(booked.status(), await booked.text()).toBe(201);
  const lessonId = ((await booked.json()) as { id: string }).id;

  // the teacher's e-mail: to their account's address, in Kolkata's time, with a link to their lessons
  const kolkata = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(start));
  const teachLink = await linkFromOutbox(teacher.email, new RegExp(`A learner booked[\\s\\S]*${kolkata}.*\\(Asia/Kolkata\\)`), /https?:\/\/\S+\/teach\/lessons/);
  expect(teachLink).toBe(`${base}/teach/lessons`);

  // the learner gets their feed on My lessons
  const page = await learnerContext.newPage();
  await page.goto('/lessons');
  const panel = page.getByRole('region', { name: 'Calendar feed' });
  await panel.getByRole('button', { name: 'Get my calendar link' }).click();
  const learnerUrl = await panel.getByRole('textbox', { name: 'Your private calendar link' }).inputValue();
  expect(learnerUrl).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  if (SHOTS_DIR) {
    mkdirSync(SHOTS_DIR, { recursive: true });
    await page.setViewportSize({ width: 375, height: 900 });
    await page.screenshot({ path: path.join(SHOTS_DIR, 'my-lessons-calendar-feed-375.png'), fullPage: true });
  }
  const learnerFeed = await learnerContext.request.get(learnerUrl);
  expect(learnerFeed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  expect(await learnerFeed.text()).toMatch(new RegExp(`UID:${lessonId}@learnlingo[\\s\\S]*STATUS:CONFIRMED\\r\\nSEQUENCE:0`));

  // the teacher's feed lists it too; the learner cancels: CANCELLED at SEQUENCE 1 in both
  const teacherUrl = ((await (await post(teacherContext.request, base, '/api/teach/calendar-feed/renew')).json()) as { url: string }).url;
  expect(await (await teacherContext.request.get(teacherUrl)).text()).toContain(`UID:${lessonId}@learnlingo`);
  expect((await post(learnerContext.request, base, `/api/bookings/${lessonId}/cancel`)).status()).toBe(200);
  for (const url of [learnerUrl, teacherUrl]) {
    expect(await (await learnerContext.request.get(url)).text()).toMatch(new RegExp(`UID:${lessonId}@learnlingo[\\s\\S]*STATUS:CANCELLED\\r\\nSEQUENCE:1`));
  }
  await linkFromOutbox(teacher.email, /was cancelled by the learner:/, /Learner: Lea Feed/);

  // renewed: the old URL is gone
  const renewed = ((await (await post(teacherContext.request, base, '/api/teach/calendar-feed/renew')).json()) as { url: string }).url;
  expect(renewed).not.toBe(teacherUrl);
  expect((await learnerContext.request.get(teacherUrl)).status()).toBe(404);
  expect((await learnerContext.request.get(renewed)).status()).toBe(200);

  for (const context of [adminContext, teacherContext, learnerContext]) await context.close();
});
