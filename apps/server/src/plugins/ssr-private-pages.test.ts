import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '@learnlingo/contract';
import { generatedTeacherId } from '../catalogue/index.js';
import { mailOutbox, teacherAvailability } from '../db/schema.js';
import { redactUrl } from '../app.js';
import { createTestApp, nextIp, signUp, TEST_ORIGIN, type TestApp } from '../test/app.js';
import { testEngine } from '../test/db.js';
import { PRIVATE_HTML } from './ssr.js';

/*
 * The pages behind an e-mailed link, server-rendered (issue 28): a booking's private link
 * works without scripts and a token that is no booking's answers 404; the reset page
 * without a token, or with one used or expired, answers 404 and says so at once. None of
 * them is kept in the HTML cache: each shows its link's state as it is now.
 */

const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const SSR_ENTRY = fileURLToPath(new URL('../../../web/dist-ssr/entry-server.js', import.meta.url));
const CLOCK = Date.parse('2026-10-28T12:00:00Z');
const NY = generatedTeacherId(1);

let t: TestApp;
beforeAll(async () => {
  if (!fs.existsSync(SSR_ENTRY)) throw new Error(`${SSR_ENTRY} is missing: run \`npm run build\` first`);
  t = await createTestApp({ seed: 1, now: () => CLOCK, env: { WEB_DIST } });
  await t.db.orm
    .update(teacherAvailability)
    .set({ timeZone: 'America/New_York', weeklyHours: Array.from({ length: 7 }, () => [[9, 11]]) })
    .where(eq(teacherAvailability.teacherId, NY));
});
afterAll(() => t.close());

const page = (url: string) => t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' }, remoteAddress: nextIp() });
/** The text React renders, without the comments it puts between adjacent text parts. */
const text = (html: string) => html.replace(/<!-- -->/g, '').replace(/&#x27;|&#39;/g, "'");

async function lastMailTo(to: string, subject: RegExp): Promise<string> {
  const rows = await t.db.orm
    .select({ message: mailOutbox.message })
    .from(mailOutbox)
    .where(sql`${mailOutbox.message}->>'to' = ${to}`)
    .orderBy(mailOutbox.createdAt);
  const mail = rows.map((r) => r.message as { subject: string; text: string }).findLast((m) => subject.test(m.subject));
  if (!mail) throw new Error('no such mail');
  return mail.text;
}

describe(`private pages rendered on the server (${testEngine})`, () => {
  it('a booking’s private link shows the booking without scripts, never cached; a bad token answers 404', async () => {
    const email = `visitor-${Date.now()}@example.com`;
    const booked = await t.app.inject({
      method: 'POST',
      url: '/api/bookings',
      remoteAddress: nextIp(),
      payload: { reason: 'Living abroad', fullName: 'Ada Lovelace', email, phone: '+44 20 7946 0958', teacherId: NY, start: '2026-11-03T14:00:00Z', timeZone: 'Europe/Berlin' },
    });
    expect(booked.statusCode).toBe(201);
    const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(await lastMailTo(email, /^Confirm/))?.[1] ?? '';

    const shown = await page(`/bookings/${token}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe(PRIVATE_HTML);
    const html = text(shown.body);
    expect(html).not.toContain('Loading your booking');
    expect(html).toMatch(/<h2[^>]*>[^<]+ with [^<]+<\/h2>/);
    // the server does not know the browser's zone: it says which one it uses
    expect(html).toContain('Times in UTC');
    // (the hours sit in a span of their own, kept on one line)
    expect(html.replace(/<[^>]*>/g, '')).toContain('Tuesday 3 November 2026, 14:00–15:00');
    expect(html).toContain('Confirm lesson');

    // cancelled by the link: the page shows that, not a kept copy of the first one
    expect((await t.app.inject({ method: 'POST', url: `/api/bookings/token/${token}/cancel`, remoteAddress: nextIp() })).statusCode).toBe(200);
    expect(text((await page(`/bookings/${token}`)).body)).toContain('>Cancelled<');

    for (const bad of ['A'.repeat(43), 'short', '%E2%80%A8'.repeat(3)]) {
      const missing = await page(`/bookings/${bad}`);
      expect(missing.statusCode, bad).toBe(404);
      expect(text(missing.body)).toContain('This booking link does not work');
    }
  });

  it('/reset-password answers 404 without a usable token; a link already used says so at once, before any typing', async () => {
    for (const url of ['/reset-password', '/reset-password?token=', '/reset-password?token=not%20a%20token', '/reset-password?token=unknowntoken123']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['cache-control'], url).toBe(PRIVATE_HTML);
      expect(text(res.body), url).toContain(accountMessages.resetLinkInvalid);
      expect(res.body, url).not.toContain('Save password');
    }

    const user = await signUp(t.app);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: TEST_ORIGIN },
      remoteAddress: nextIp(),
      payload: { email: user.email, redirectTo: '/reset-password' },
    });
    expect(asked.statusCode).toBe(200);
    const link = new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(await lastMailTo(user.email, /^Reset/))?.[0] ?? '');
    const url = `${link.pathname}${link.search}`;

    const usable = await page(url);
    expect(usable.statusCode).toBe(200);
    expect(usable.body).toContain('Save password');
    expect(usable.body).not.toContain(accountMessages.resetLinkInvalid);

    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      headers: { origin: TEST_ORIGIN },
      remoteAddress: nextIp(),
      payload: { token: link.searchParams.get('token'), newPassword: 'another-pass-2' },
    });
    expect(reset.statusCode).toBe(200);
    const used = await page(url);
    expect(used.statusCode).toBe(404);
    expect(text(used.body)).toContain(accountMessages.resetLinkInvalid);
    expect(used.body).not.toContain('Save password');
  });

  it('an e-mailed reset or confirmation token never reaches a log', () => {
    expect(redactUrl('/reset-password?token=abcDEF_-123')).toBe('/reset-password?token=[redacted]');
    expect(redactUrl('/api/auth/reset-password/abcDEF_-123?callbackURL=%2Freset-password')).toBe(
      '/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password',
    );
    expect(redactUrl('/api/auth/verify-email?token=eyJ.x.y&callbackURL=%2Faccount')).toBe('/api/auth/verify-email?token=[redacted]&callbackURL=%2Faccount');
    expect(redactUrl('/teachers?q=token')).toBe('/teachers?q=token');
  });
});
