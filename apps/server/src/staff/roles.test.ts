import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { seedGenerated } from '../catalogue/index.js';
import type { Database } from '../db/client.js';
import { staffActivity, teacher, teacherAccount, user } from '../db/schema.js';
import { nextIp, signUp, TEST_ORIGIN, testEnv, type TestUser } from '../test/app.js';
import { createTestDatabase } from '../test/db.js';
import { COMMAND_LINE, listActivity, recordActivity } from './activity.js';
import { teacherIdOfUser } from './guards.js';

/*
 * Roles (decision 109): the role is never its owner's to set, better-auth's admin endpoints
 * refuse non-admins (and refuse writes to everyone: the console's routes write and audit),
 * the guards' 401/403, the teacher binding, and the audit log's one function.
 */

let app: FastifyInstance;
let db: Database;
let drop: () => Promise<void>;
let learner: TestUser;
let admin: TestUser;
let teacherUser: TestUser;
let teacherIds: string[];

beforeAll(async () => {
  ({ db, drop } = await createTestDatabase());
  await seedGenerated(db, 3);
  app = await buildApp({ env: testEnv(), db, catalogueCacheCheckMs: 0, mailWorker: false });
  // a route behind requireTeacher, as the teacher side (a later issue) will have
  app.get('/api/test/my-profile', { preHandler: app.requireTeacher }, (request) => ({ teacherId: request.teacherId }));
  await app.ready();
  learner = await signUp(app);
  admin = await signUp(app);
  teacherUser = await signUp(app);
  await db.orm.update(user).set({ role: 'admin' }).where(eq(user.id, admin.id));
  await db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, teacherUser.id));
  teacherIds = (await db.orm.select({ id: teacher.id }).from(teacher).orderBy(teacher.id)).map((row) => row.id);
});
afterAll(async () => {
  await app.close();
  await drop();
});

const post = (url: string, payload: Record<string, unknown>, cookie?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { origin: TEST_ORIGIN, ...(cookie ? { cookie } : {}) },
    remoteAddress: nextIp(),
    payload,
  });
const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const roleOf = async (id: string) => (await db.orm.select({ role: user.role }).from(user).where(eq(user.id, id)))[0]?.role;

describe('the role', () => {
  it('is learner for a new account, and the session says so', async () => {
    expect(await roleOf(learner.id)).toBe('learner');
    const session = await get('/api/auth/get-session', learner.cookie);
    expect(session.json()).toMatchObject({ user: { id: learner.id, role: 'learner' } });
    const adminSession = await get('/api/auth/get-session', admin.cookie);
    expect(adminSession.json()).toMatchObject({ user: { role: 'admin' } });
  });

  it('cannot be chosen at sign-up (400 naming the field; no account made)', async () => {
    const email = `wannabe-${Date.now()}@example.com`;
    const res = await post('/api/auth/sign-up/email', { name: 'Wannabe', email, password: 'secret-pass-1', role: 'admin' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', fields: { role: 'Not allowed' } });
    expect(await db.orm.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('cannot be changed by its owner through update-user (400; the role stays)', async () => {
    const res = await post('/api/auth/update-user', { name: 'Still learner', role: 'admin' }, learner.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fields: { role: 'Not allowed' } });
    expect(await roleOf(learner.id)).toBe('learner');
  });

  it('is refused anything but learner, teacher or admin by the database', async () => {
    await expect(db.orm.update(user).set({ role: 'owner' }).where(eq(user.id, learner.id))).rejects.toThrow();
    expect(await roleOf(learner.id)).toBe('learner');
  });
});

describe("better-auth's admin endpoints", () => {
  it.each([
    ['/admin/set-role', () => ({ userId: learner.id, role: 'admin' })],
    ['/admin/ban-user', () => ({ userId: admin.id })],
    ['/admin/create-user', () => ({ email: 'made@example.com', name: 'Made', password: 'secret-pass-1', role: 'admin' })],
    ['/admin/remove-user', () => ({ userId: admin.id })],
    ['/admin/impersonate-user', () => ({ userId: admin.id })],
    ['/admin/set-user-password', () => ({ userId: admin.id, newPassword: 'secret-pass-2' })],
  ])('refuse %s to a learner and a teacher (403), and to an admin too (writes go through the audited console)', async (path, body) => {
    for (const who of [learner, teacherUser, admin]) {
      const res = await post(`/api/auth${path}`, body(), who.cookie);
      expect(res.statusCode, `${path} as ${who.email}`).toBe(403);
    }
    expect(await roleOf(learner.id)).toBe('learner');
    expect(await roleOf(admin.id)).toBe('admin');
    expect(await db.orm.select().from(user).where(eq(user.email, 'made@example.com'))).toHaveLength(0);
  });

  it('answer 401 without a session', async () => {
    expect((await post('/api/auth/admin/set-role', { userId: learner.id, role: 'admin' })).statusCode).toBe(401);
  });

  it('let an admin read (list-users), nobody else (403)', async () => {
    expect((await get('/api/auth/admin/list-users', learner.cookie)).statusCode).toBe(403);
    expect((await get('/api/auth/admin/list-users', teacherUser.cookie)).statusCode).toBe(403);
    const res = await get('/api/auth/admin/list-users', admin.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json<{ total: number }>().total).toBeGreaterThanOrEqual(3);
  });
});

describe('the staff guards', () => {
  it('requireAdmin: 401 without a session, 403 for a learner or teacher, 200 for an admin', async () => {
    expect((await get('/api/staff/activity')).statusCode).toBe(401);
    const refused = await get('/api/staff/activity', learner.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    expect((await get('/api/staff/activity', teacherUser.cookie)).statusCode).toBe(403);
    expect((await get('/api/staff/activity', admin.cookie)).statusCode).toBe(200);
  });

  it('requireTeacher: 401, 403 for a learner, an admin and an unbound teacher; the bound teacher gets their profile', async () => {
    expect((await get('/api/test/my-profile')).statusCode).toBe(401);
    expect((await get('/api/test/my-profile', learner.cookie)).statusCode).toBe(403);
    expect((await get('/api/test/my-profile', admin.cookie)).statusCode).toBe(403);
    expect((await get('/api/test/my-profile', teacherUser.cookie)).statusCode).toBe(403);
    await db.orm.insert(teacherAccount).values({ teacherId: teacherIds[0]!, userId: teacherUser.id });
    const res = await get('/api/test/my-profile', teacherUser.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ teacherId: teacherIds[0] });
    expect(await teacherIdOfUser(db.orm, teacherUser.id)).toBe(teacherIds[0]);
    expect(await teacherIdOfUser(db.orm, learner.id)).toBeNull();
  });

  it('a role change shows at the next request (the session reads the account)', async () => {
    await db.orm.update(user).set({ role: 'learner' }).where(eq(user.id, teacherUser.id));
    expect((await get('/api/test/my-profile', teacherUser.cookie)).statusCode).toBe(403);
    await db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, teacherUser.id));
    expect((await get('/api/test/my-profile', teacherUser.cookie)).statusCode).toBe(200);
  });
});

describe('the teacher binding', () => {
  it('is one account per profile and one profile per account', async () => {
    // (teacherUser is bound to teacherIds[0] above)
    await expect(db.orm.insert(teacherAccount).values({ teacherId: teacherIds[0]!, userId: learner.id })).rejects.toThrow();
    await expect(db.orm.insert(teacherAccount).values({ teacherId: teacherIds[1]!, userId: teacherUser.id })).rejects.toThrow();
    const rows = await db.orm.select().from(teacherAccount);
    expect(rows).toEqual([expect.objectContaining({ teacherId: teacherIds[0], userId: teacherUser.id })]);
  });
});

describe('recordActivity', () => {
  const actor = () => ({ id: admin.id, name: admin.name, email: admin.email });

  it('commits with the change, and not without it', async () => {
    await expect(
      db.orm.transaction(async (tx) => {
        await recordActivity(tx, { actor: actor(), action: 'test.rolled-back', subject: { type: 'user', id: learner.id } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await db.orm.select().from(staffActivity).where(eq(staffActivity.action, 'test.rolled-back'))).toHaveLength(0);

    await db.orm.transaction((tx) =>
      recordActivity(tx, {
        actor: actor(),
        action: 'user.role',
        subject: { type: 'user', id: learner.id },
        before: { role: 'learner' },
        after: { role: 'teacher' },
      }),
    );
    const [row] = await db.orm.select().from(staffActivity).where(eq(staffActivity.action, 'user.role'));
    expect(row).toMatchObject({
      actorUserId: admin.id,
      actorName: admin.name,
      actorEmail: admin.email,
      subjectType: 'user',
      subjectId: learner.id,
      before: { role: 'learner' },
      after: { role: 'teacher' },
    });
  });

  it('lists newest first, a page at a time, through GET /api/staff/activity', async () => {
    for (let i = 0; i < 32; i += 1) {
      await recordActivity(db.orm, { actor: COMMAND_LINE, action: `test.n${i}`, subject: { type: 'user', id: 'x' } });
    }
    const first = await get('/api/staff/activity', admin.cookie);
    expect(first.statusCode).toBe(200);
    const page = first.json<{ items: { id: number; action: string; actor: { name: string } }[]; next: number | null; total: number }>();
    expect(page.items).toHaveLength(30);
    expect(page.items[0]).toMatchObject({ action: 'test.n31', actor: { name: COMMAND_LINE.name }, subject: { type: 'user', id: 'x', label: null } });
    expect(page.total).toBe(33);
    const second = await get(`/api/staff/activity?before=${page.next}`, admin.cookie);
    const rest = second.json<typeof page>();
    expect(rest.items.map((item) => item.action)).toEqual(['test.n1', 'test.n0', 'user.role']);
    // the subject named as it is now
    expect(rest.items[2]).toMatchObject({ subject: { type: 'user', id: learner.id, label: `${learner.name} <${learner.email}>` } });
    expect(rest.next).toBeNull();
    expect((await listActivity(db.orm, { limit: 1 })).items[0]?.action).toBe('test.n31');
  });

  it('refuses a bad page key (400 naming the field)', async () => {
    const res = await get('/api/staff/activity?before=abc', admin.cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { before: expect.any(String) } } });
  });
});
