import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_ADMIN as ADMIN } from './admin-account';
import { expect, signInViaApi, type TestUser } from './fixtures';
import { linkFromOutbox } from './outbox';

/**
 * Signs the page's browser context in as the school's first admin (through the API, as the
 * fixtures do), for journeys that need an admin on the way (teach-*.spec.ts). The admin comes
 * from `npm run admin -- add` (start-server.mjs --admin) with no password: admin-console.spec.ts
 * sets it from the e-mail in the outbox as a person would. A journey that runs before it does the
 * same through the API, so either order works (the link is single use: the loser signs in).
 */
export async function signInAsNewAdmin(page: Page, baseURL: string): Promise<void> {
  const signIn = () => page.request.post(`${baseURL}/api/auth/sign-in/email`, { data: { email: ADMIN.email, password: ADMIN.password }, headers: { origin: baseURL } });
  if ((await signIn()).ok()) return;
  const link = new URL(await linkFromOutbox(ADMIN.email, /^Subject: Your LearnLingo admin account/m, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_%-]+/));
  await page.request.post(`${baseURL}/api/auth/reset-password`, {
    data: { newPassword: ADMIN.password, token: link.searchParams.get('token') },
    headers: { origin: baseURL },
  });
  await expect.poll(async () => (await signIn()).status(), { timeout: 10_000 }).toBe(200);
}

/**
 * A teacher's account for the catalogue profile `teacherId`, made as the school makes one: the
 * admin (`admin`, signed in) invites `teacher`'s e-mail, the link from the outbox is accepted
 * with their name and password, and `request` (the teacher's context) is signed in as them.
 */
export async function inviteTeacher(admin: APIRequestContext, request: APIRequestContext, baseURL: string, teacherId: string, teacher: TestUser): Promise<void> {
  const headers = { origin: baseURL };
  const invited = await admin.post(`${baseURL}/api/staff/teachers/${teacherId}/invitations`, { data: { email: teacher.email }, headers });
  expect(invited.status(), await invited.text()).toBe(201);
  const invitation = await linkFromOutbox(teacher.email, /^Subject: You are invited to teach on LearnLingo/m, /https?:\/\/\S+\/invite\?token=[A-Za-z0-9_-]+/);
  const token = new URL(invitation).searchParams.get('token');
  const accepted = await request.post(`${baseURL}/api/invitations/accept`, { data: { token, name: teacher.name, password: teacher.password }, headers });
  expect(accepted.status(), await accepted.text()).toBe(200);
  await signInViaApi(request, baseURL, teacher);
}
