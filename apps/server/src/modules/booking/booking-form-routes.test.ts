import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Lesson, SlotsResponse } from '@learnlingo/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, mailOutbox, schoolSettings } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTestApp, nextIp, TEST_ORIGIN, type TestApp } from '../../test/app.js';
import { testEngine } from '../../test/db.js';

/*
 * Issue 28: a trial lesson booked without JavaScript (decision 105). The server-rendered
 * /teachers/:id/book page posts its form to the same page; a refusal renders the page again
 * with what was typed and the modal's messages; a booking renders its confirmation. The
 * e-mailed link's "Confirm lesson" is a form too.
 */

const WEB_DIST = fileURLToPath(new URL('../../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../../web/dist-ssr/entry-server.js', import.meta.url));
const TEACHERS = [1, 2].map(generatedTeacherId);
const PER_ADDRESS = 3;

let t: TestApp;
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  t = await createTestApp({ seed: 2, env: { WEB_DIST, BOOKINGS_PER_ADDRESS_PER_HOUR: String(PER_ADDRESS), BOOKINGS_PER_EMAIL_PER_HOUR: '20' } });
});
afterAll(() => t.close());

let mailCounter = 0;
const freshEmail = () => `nojs${(mailCounter += 1)}-${process.pid}@example.com`;
const fields = (start: string, overrides: Record<string, string> = {}) => ({
  reason: 'Living abroad',
  fullName: 'Ada Lovelace',
  email: freshEmail(),
  phone: '+44 20 7946 0958',
  start,
  timeZone: 'Europe/Berlin',
  ...overrides,
});

function post(url: string, body: Record<string, string>, headers: Record<string, string> = {}, remoteAddress = nextIp()) {
  return t.app.inject({
    method: 'POST',
    url,
    remoteAddress,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(body).toString(),
  });
}

const slotsOf = async (teacherId: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots` })).json<SlotsResponse>().slots;
/** The time radios: [start, checked] each. */
const radios = (html: string) =>
  [...html.matchAll(/<input type="radio" name="start"( checked="")? value="([^"]+)"[^>]*>/g)].map((match) => [match[2]!, match[1] !== undefined] as const);
const mailsTo = async (email: string) =>
  (await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox))
    .map((row) => row.message as MailMessage)
    .filter((message) => message.to === email);

describe(`the booking page without JavaScript (${testEngine})`, () => {
  it('GET renders the form: the times as radio buttons grouped by day, in ?tz=, private and never cached', async () => {
    const [teacherId] = TEACHERS as [string];
    const res = await t.app.inject({ method: 'GET', url: `/teachers/${teacherId}/book?tz=Asia/Tokyo` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toMatch(new RegExp(`<form [^>]*action="/teachers/${teacherId}/book" method="post">`));
    expect(res.body).toContain('<input type="hidden" name="timeZone" value="Asia/Tokyo"/>');
    // every free time, one radio each, under a legend per day
    expect(radios(res.body).map(([start]) => start)).toEqual(await slotsOf(teacherId));
    expect(radios(res.body).filter(([, checked]) => checked)).toEqual([]);
    expect(res.body.match(/<legend class="[^"]*">(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}/g)?.length).toBeGreaterThan(1);
    for (const label of ['Full Name', 'Email', 'Phone number']) expect(res.body).toContain(`placeholder="${label}"`);
    expect(res.body).toContain('What is your main reason for learning');
    expect(res.body).toContain('Asia/Tokyo (GMT+9)');
  });

  it('an empty post: 400, the page again naming every field with the modal’s messages', async () => {
    const res = await post(`/teachers/${TEACHERS[0]}/book`, {});
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('private, no-store');
    for (const message of ['Choose a reason', 'Choose a time for your lesson', 'Full name is required field', 'Email can&#x27;t be is empty', 'Phone number is required field']) {
      expect(res.body).toContain(message);
    }
    expect(res.body).toContain('aria-invalid="true"');
  });

  it('bad fields: 400, what was typed kept, caps before patterns, never a 500', async () => {
    const [start] = await slotsOf(TEACHERS[0]!);
    const res = await post(`/teachers/${TEACHERS[0]}/book`, fields(start!, { email: 'not-an-email', phone: '12', fullName: 'Ada <b>Lovelace</b>' }));
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Invalid email');
    expect(res.body).toContain('Invalid phone number');
    expect(res.body).toContain('value="Ada &lt;b&gt;Lovelace&lt;/b&gt;"');
    expect(res.body).toContain('value="not-an-email"');
    // the chosen time stays chosen
    expect(radios(res.body).filter(([, checked]) => checked)).toEqual([[start, true]]);
    const long = await post(`/teachers/${TEACHERS[0]}/book`, fields(start!, { fullName: 'x'.repeat(5000), language: 'Klingon' }));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('Full name must be at most 100 characters');
    expect(await t.db.orm.select().from(booking)).toHaveLength(0);
  });

  it('a visitor books: the confirmation page, a hold e-mailed; the time is then taken (409, the page says so)', async () => {
    const teacherId = TEACHERS[0]!;
    const [start] = await slotsOf(teacherId);
    const sent = fields(start!);
    const res = await post(`/teachers/${teacherId}/book`, sent);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('Check your e-mail to confirm');
    expect(res.body).toContain('Thanks for you choice');
    expect(res.body).toContain('We have e-mailed you a link to confirm this lesson.');
    // the private link reaches the learner only by e-mail (decision 102)
    expect(res.body).not.toMatch(/\/bookings\/[A-Za-z0-9_-]{43}/);
    const [hold] = await mailsTo(sent.email);
    expect(hold?.subject).toMatch(/^Confirm your .*trial lesson/);
    expect(await slotsOf(teacherId)).not.toContain(start);

    const again = await post(`/teachers/${teacherId}/book`, fields(start!, { fullName: 'Grace Hopper' }));
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Someone has just booked this time. Please choose another one.');
    expect(again.body).toContain('value="Grace Hopper"');
    expect(radios(again.body).map(([free]) => free)).not.toContain(start);
    expect(radios(again.body).filter(([, checked]) => checked)).toEqual([]);
  });

  it('the e-mailed link’s "Confirm lesson" is a form: 303 back to the page, which says the lesson is confirmed', async () => {
    const teacherId = TEACHERS[1]!;
    const [start] = await slotsOf(teacherId);
    const sent = fields(start!);
    expect((await post(`/teachers/${teacherId}/book`, sent)).statusCode).toBe(200);
    const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec((await mailsTo(sent.email))[0]!.text)![1]!;
    const page = await t.app.inject({ method: 'GET', url: `/bookings/${token}` });
    expect(page.body).toContain(`<form action="/bookings/${token}/confirm" method="post">`);

    const res = await post(`/bookings/${token}/confirm`, {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/bookings/${token}?confirmed`);
    expect((await t.app.inject({ method: 'GET', url: `/api/bookings/token/${token}` })).json<Lesson>().status).toBe('upcoming');
    const after = await t.app.inject({ method: 'GET', url: res.headers.location as string });
    expect(after.body).toContain('Your lesson is confirmed');
    expect(after.body).not.toContain('Confirm lesson');

    expect((await post(`/bookings/${'A'.repeat(43)}/confirm`, {})).headers.location).toBe(`/bookings/${'A'.repeat(43)}`);
    expect((await post('/bookings/not-a-token/confirm', {})).statusCode).toBe(404);
  });

  it('"Cancel lesson" by the private link is a form too: 303 back to the page, which says it is cancelled; past the cut-off it says why (decision 117)', async () => {
    const teacherId = TEACHERS[1]!;
    const slots = await slotsOf(teacherId);
    const book = async (start: string) => {
      const sent = fields(start);
      expect((await post(`/teachers/${teacherId}/book`, sent)).statusCode).toBe(200);
      const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec((await mailsTo(sent.email))[0]!.text)![1]!;
      expect((await post(`/bookings/${token}/confirm`, {})).statusCode).toBe(303);
      return token;
    };
    const token = await book(slots.at(-2)!);
    const page = await t.app.inject({ method: 'GET', url: `/bookings/${token}` });
    expect(page.body).toContain(`<form action="/bookings/${token}/cancel" method="post">`);
    const res = await post(`/bookings/${token}/cancel`, {});
    expect(res.headers.location).toBe(`/bookings/${token}?cancelled`);
    expect((await t.app.inject({ method: 'GET', url: `/api/bookings/token/${token}` })).json<Lesson>().status).toBe('cancelled');
    expect((await t.app.inject({ method: 'GET', url: res.headers.location as string })).body).toContain('Your lesson was cancelled');

    // a lesson within a week, and the school's cut-off a week: too late
    const late = await book(slots[1]!);
    await t.db.orm.insert(schoolSettings).values({ id: 1, cancelCutoffHours: 168 }).onConflictDoUpdate({ target: schoolSettings.id, set: { cancelCutoffHours: 168 } });
    try {
      const refused = await post(`/bookings/${late}/cancel`, {});
      expect(refused.headers.location).toBe(`/bookings/${late}?cancel=late`);
      expect((await t.app.inject({ method: 'GET', url: `/api/bookings/token/${late}` })).json<Lesson>().status).toBe('upcoming');
    } finally {
      await t.db.orm.delete(schoolSettings);
    }
  });

  it('the booking limit per address counts form posts (429 with Retry-After, the page says how long)', async () => {
    const ip = nextIp();
    const teacherId = TEACHERS[1]!;
    const statuses: number[] = [];
    let last;
    for (let i = 0; i <= PER_ADDRESS; i += 1) {
      const slots = await slotsOf(teacherId);
      last = await post(`/teachers/${teacherId}/book`, fields(slots[slots.length - 1 - i]!), {}, ip);
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(PER_ADDRESS).fill(200), 429]);
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    expect(last!.body).toMatch(/Too many bookings in the last hour\. Please try again in \d+ minutes?\./);
  });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['no Origin, Sec-Fetch-Site: cross-site', { origin: '', 'sec-fetch-site': 'cross-site' }],
  ])('a cross-site post is refused (403), nothing booked: %s', async (_case, headers) => {
    const [start] = await slotsOf(TEACHERS[0]!);
    const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
    const res = await t.app.inject({
      method: 'POST',
      url: `/teachers/${TEACHERS[0]}/book`,
      remoteAddress: nextIp(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...sent },
      payload: new URLSearchParams(fields(start!)).toString(),
    });
    expect(res.statusCode).toBe(403);
    expect(await slotsOf(TEACHERS[0]!)).toContain(start);
  });

  it('an unknown teacher: 404 for the page and for its post', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/teachers/no-such-teacher/book' })).statusCode).toBe(404);
    const res = await post('/teachers/no-such-teacher/book', fields(new Date(Date.now() + 86_400_000).toISOString()));
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});
