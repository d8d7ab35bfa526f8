import { randomUUID } from 'node:crypto';
import type { TeachLessonItem, TeachLessonsPage, TeachLessonView } from '@learnlingo/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, schoolSettings, teacherAccount, teacherAvailability, user } from '../../db/schema.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';
import { selectTeachLessons } from './teach-lessons-routes.js';

/*
 * GET /api/teach/lessons (issue 25, decision 122) with the app's clock: only the teacher's own
 * lessons, each view's order, keyset pages without duplicates or gaps, the teacher's wall time
 * across New York's spring change, field-named 400s, 401/403, and the past view's plan.
 */

/** Thursday 5 March 2026, 12:00 UTC: New York moves its clocks forward on Sunday 8 March. */
const NOW = Date.parse('2026-03-05T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MINE = generatedTeacherId(1);
const THEIRS = generatedTeacherId(2);

let t: TestApp;
let teacherUser: TestUser;
let otherTeacher: TestUser;
let learner: TestUser;

type Row = typeof booking.$inferInsert;
const rows: Row[] = [];
let n = 0;
/** A booking of `teacherId` starting at `start` (ms), with whatever else it needs. */
function lesson(start: number | null, extra: Partial<Row> = {}, teacherId = MINE): Row {
  n += 1;
  const row: Row = {
    id: randomUUID(),
    teacherId,
    reason: 'Career and business',
    fullName: `Learner ${String(n).padStart(2, '0')}`,
    email: `learner${n}@example.com`,
    phone: '+44 20 7946 0958',
    language: 'French',
    start: start === null ? null : new Date(start),
    createdAt: new Date(NOW - 10 * DAY),
    ...extra,
  };
  rows.push(row);
  return row;
}

const at = (iso: string) => Date.parse(iso);
const cancelled = (by: Row['cancelledBy'], reason: string | null = null) => ({ cancelledAt: new Date(NOW - HOUR), cancelledBy: by, cancelReason: reason });

// requests: waiting (answer_by ahead); two share a deadline (the id breaks the tie)
const REQUESTS = [
  lesson(at('2026-03-09T17:00:00Z'), { answerBy: new Date(NOW + 5 * HOUR) }),
  lesson(at('2026-03-10T17:00:00Z'), { answerBy: new Date(NOW + 20 * HOUR) }),
  lesson(at('2026-03-11T17:00:00Z'), { answerBy: new Date(NOW + 5 * HOUR) }),
  lesson(at('2026-03-06T18:00:00Z'), { answerBy: new Date(NOW + 24 * HOUR) }),
  lesson(at('2026-03-12T17:00:00Z'), { answerBy: new Date(NOW + 2 * HOUR) }),
];
// upcoming: until each ends, whatever became of it
const IN_PROGRESS = lesson(NOW - 30 * 60_000);
const SOON = lesson(NOW + 6 * HOUR);
const AFTER_THE_CHANGE = lesson(at('2026-03-09T18:00:00Z'), { language: 'German' });
const BEFORE_THE_CHANGE = lesson(at('2026-03-06T19:00:00Z'));
const CANCELLED_SAME_SLOT = lesson(at('2026-03-06T19:00:00Z'), cancelled('learner'));
const TEACHER_CANCELLED = lesson(at('2026-03-07T15:00:00Z'), cancelled('teacher', 'I am ill, sorry.'));
const DECLINED = lesson(at('2026-03-08T15:00:00Z'), { answerBy: new Date(NOW + DAY), ...cancelled('declined', 'Fully booked that week') });
const OVERDUE = lesson(at('2026-03-13T15:00:00Z'), { answerBy: new Date(NOW - 1) }); // the sweep has not run yet
const MORE_UPCOMING = [2, 3, 4, 5].map((d) => lesson(NOW + d * DAY + 3 * HOUR));
// past: from its end on, newest first
const JUST_ENDED = lesson(NOW - HOUR);
const PAST_CANCELLED = lesson(NOW - 2 * DAY, cancelled('school', 'Closed for a holiday'));
const PAST_SAME_SLOT = lesson(NOW - 2 * DAY);
const MORE_PAST = [3, 4, 5, 6, 7, 8, 9].map((d) => lesson(NOW - d * DAY + 5 * HOUR));
// never listed: a visitor's unconfirmed hold, a booking without a time, another teacher's
const HOLD = lesson(NOW + 3 * DAY, { holdExpiresAt: new Date(NOW + HOUR) });
const NO_TIME = lesson(null);
const OTHERS = [lesson(NOW + DAY, {}, THEIRS), lesson(NOW - DAY, {}, THEIRS), lesson(NOW + 4 * DAY, { answerBy: new Date(NOW + HOUR) }, THEIRS)];

const byKey = (key: (r: Row) => number, direction: 1 | -1) => (a: Row, b: Row) =>
  direction * (key(a) - key(b) || (a.id! < b.id! ? -1 : a.id! > b.id! ? 1 : 0));
const startOf = (r: Row) => r.start!.getTime();
const EXPECTED: Record<TeachLessonView, string[]> = {
  requests: [...REQUESTS].sort(byKey((r) => r.answerBy!.getTime(), 1)).map((r) => r.id!),
  upcoming: [IN_PROGRESS, SOON, AFTER_THE_CHANGE, BEFORE_THE_CHANGE, CANCELLED_SAME_SLOT, TEACHER_CANCELLED, DECLINED, OVERDUE, ...MORE_UPCOMING]
    .sort(byKey(startOf, 1))
    .map((r) => r.id!),
  past: [JUST_ENDED, PAST_CANCELLED, PAST_SAME_SLOT, ...MORE_PAST].sort(byKey(startOf, -1)).map((r) => r.id!),
};

async function bindTeacher(u: TestUser, teacherId: string) {
  await t.db.orm.update(user).set({ role: 'teacher' }).where(eq(user.id, u.id));
  await t.db.orm.insert(teacherAccount).values({ teacherId, userId: u.id });
}

beforeAll(async () => {
  t = await createTestApp({ seed: 3, now: () => NOW, env: { SCHOOL_TIME_ZONE: 'Europe/Kyiv' } });
  teacherUser = await signUp(t.app, { name: 'Tea Cher' });
  otherTeacher = await signUp(t.app);
  learner = await signUp(t.app);
  await bindTeacher(teacherUser, MINE);
  await bindTeacher(otherTeacher, THEIRS);
  await t.db.orm.update(teacherAvailability).set({ timeZone: 'America/New_York' }).where(eq(teacherAvailability.teacherId, MINE));
  // the other teacher keeps the school's hours, and so the school's zone
  await t.db.orm.delete(teacherAvailability).where(eq(teacherAvailability.teacherId, THEIRS));
  await t.db.orm.insert(booking).values(rows);
});
afterAll(() => t.close());

const get = (query: string, who: TestUser | null = teacherUser) =>
  t.app.inject({ method: 'GET', url: `/api/teach/lessons${query}`, headers: { origin: TEST_ORIGIN, ...(who ? { cookie: who.cookie } : {}) } });
const page = async (query: string, who?: TestUser) => {
  const res = await get(query, who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TeachLessonsPage>();
};
/** Every page of a view, `limit` at a time, following nextCursor. */
async function walk(view: TeachLessonView, limit: number) {
  const pages: TeachLessonsPage[] = [];
  let cursor: string | null = null;
  do {
    const p = await page(`?view=${view}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    pages.push(p);
    cursor = p.nextCursor;
  } while (cursor && pages.length < 50);
  return pages;
}
const fieldsOf = (res: { json: () => unknown }) => (res.json() as { error: { fields?: Record<string, string> } }).error.fields;

describe('GET /api/teach/lessons', () => {
  it('answers 401 without a session and 403 to a learner', async () => {
    expect((await get('', null)).statusCode).toBe(401);
    expect((await get('?view=past', learner)).statusCode).toBe(403);
    expect((await get('/first-pages', null)).statusCode).toBe(401);
    expect((await get('/first-pages', learner)).statusCode).toBe(403);
  });

  it.each([1, 2, 3, 50] as const)('pages each view %i at a time in its order, without a duplicate or a gap', async (limit) => {
    for (const view of ['requests', 'upcoming', 'past'] as const) {
      const pages = await walk(view, limit);
      expect(
        pages.flatMap((p) => p.items.map((i) => i.id)),
        view,
      ).toEqual(EXPECTED[view]);
      expect(pages.every((p) => p.items.length <= limit && p.view === view)).toBe(true);
      expect(pages.at(-1)!.nextCursor).toBeNull();
    }
  });

  it("lists only the teacher's own lessons, never a hold nor one without a time", async () => {
    const mine = new Set(Object.values(EXPECTED).flat());
    expect(mine.size).toBe(rows.length - 2 - OTHERS.length);
    for (const excluded of [HOLD, NO_TIME, ...OTHERS]) expect(mine.has(excluded.id!)).toBe(false);
    const theirs = await Promise.all((['requests', 'upcoming', 'past'] as const).map((view) => page(`?view=${view}`, otherTeacher)));
    expect(theirs.flatMap((p) => p.items.map((i) => i.id)).sort()).toEqual(OTHERS.map((r) => r.id!).sort());
    // their zone is the school's (no hours of their own)
    expect(theirs[0]!.timeZone).toBe('Europe/Kyiv');
  });

  it("says each lesson's state, learner, reason and times on the teacher's clock across the spring change", async () => {
    const upcoming = await page('?view=upcoming&limit=50');
    expect(upcoming.timeZone).toBe('America/New_York');
    const item = (r: Row) => upcoming.items.find((i) => i.id === r.id)!;
    expect(item(BEFORE_THE_CHANGE)).toMatchObject({
      state: 'confirmed',
      start: '2026-03-06T19:00:00.000Z',
      end: '2026-03-06T20:00:00.000Z',
      localStart: { date: '2026-03-06', weekday: 'Fri', time: '14:00', offset: '-05:00' },
      localEnd: { date: '2026-03-06', weekday: 'Fri', time: '15:00', offset: '-05:00' },
      learner: { fullName: BEFORE_THE_CHANGE.fullName },
      language: 'French',
      reason: 'Career and business',
      cancellable: true,
      answerBy: null,
      answerByLocal: null,
    } satisfies Partial<TeachLessonItem>);
    expect(item(AFTER_THE_CHANGE)).toMatchObject({ language: 'German', localStart: { date: '2026-03-09', weekday: 'Mon', time: '14:00', offset: '-04:00' } });
    // in progress: still upcoming, past the cut-off; 6 h ahead: within the 12 h cut-off
    expect(item(IN_PROGRESS)).toMatchObject({ state: 'confirmed', cancellable: false });
    expect(item(SOON)).toMatchObject({ state: 'confirmed', cancellable: false });
    expect(item(CANCELLED_SAME_SLOT)).toMatchObject({ state: 'cancelled', cancelledBy: 'learner', cancelReason: null, cancellable: false });
    expect(item(TEACHER_CANCELLED)).toMatchObject({ state: 'cancelled', cancelledBy: 'teacher', cancelReason: 'I am ill, sorry.' });
    expect(item(DECLINED)).toMatchObject({ state: 'declined', cancelReason: 'Fully booked that week', answerBy: null });
    expect(item(OVERDUE)).toMatchObject({ state: 'expired', cancelledBy: 'expired', answerBy: null, cancellable: false });

    const requests = await page('?view=requests');
    expect(requests.items[0]).toMatchObject({
      id: REQUESTS[4]!.id,
      state: 'requested',
      answerBy: new Date(NOW + 2 * HOUR).toISOString(),
      answerByLocal: { date: '2026-03-05', weekday: 'Thu', time: '09:00', offset: '-05:00' },
      cancellable: false,
    });
    const past = (await page('?view=past&limit=50')).items;
    expect(past[0]).toMatchObject({ id: JUST_ENDED.id, state: 'past', cancellable: false });
    expect(past.find((i) => i.id === PAST_CANCELLED.id)).toMatchObject({ state: 'cancelled', cancelledBy: 'school', cancelReason: 'Closed for a holiday' });
  });

  it("follows the school's cancellation cut-off", async () => {
    await t.db.orm.insert(schoolSettings).values({ id: 1, cancelCutoffHours: 48 }).onConflictDoUpdate({ target: schoolSettings.id, set: { cancelCutoffHours: 48 } });
    try {
      const items = (await page('?view=upcoming&limit=50')).items;
      expect(items.find((i) => i.id === BEFORE_THE_CHANGE.id)!.cancellable).toBe(false); // 31 h ahead
      expect(items.find((i) => i.id === AFTER_THE_CHANGE.id)!.cancellable).toBe(true);
    } finally {
      await t.db.orm.update(schoolSettings).set({ cancelCutoffHours: null }).where(eq(schoolSettings.id, 1));
    }
  });

  it('answers 400 naming the field for a bad view, limit or cursor', async () => {
    const cases: [string, string][] = [
      ['?view=all', 'view'],
      ['?limit=0', 'limit'],
      ['?limit=51', 'limit'],
      ['?limit=1e2', 'limit'],
      ['?limit=ten', 'limit'],
      ['?cursor=', 'cursor'],
      [`?cursor=${'x'.repeat(300)}`, 'cursor'],
      ['?cursor=bm90LWEtY3Vyc29y.c2lnbmF0dXJl', 'cursor'],
      ['?order=start', 'order'],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(fieldsOf(res) ?? {}), query).toContain(field);
    }
    // a cursor belongs to its view and its teacher
    const { nextCursor } = await page('?view=past&limit=1');
    expect(nextCursor).not.toBeNull();
    expect(fieldsOf(await get(`?view=upcoming&cursor=${encodeURIComponent(nextCursor!)}`))).toHaveProperty('cursor');
    expect(fieldsOf(await get(`?view=past&cursor=${encodeURIComponent(nextCursor!)}`, otherTeacher))).toHaveProperty('cursor');
  });

  it('answers the first page of each view at once, as each view answers it', async () => {
    const res = await get('/first-pages?limit=3');
    expect(res.statusCode).toBe(200);
    const first = res.json<Record<TeachLessonView, TeachLessonsPage>>();
    for (const view of ['requests', 'upcoming', 'past'] as const) expect(first[view], view).toEqual(await page(`?view=${view}&limit=3`));
    expect(fieldsOf(await get('/first-pages?limit=0'))).toHaveProperty('limit');
    expect(fieldsOf(await get('/first-pages?view=past'))).toHaveProperty('view');
  });

  it('is described in the OpenAPI document', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/teach/lessons', '/api/teach/lessons/first-pages']));
  });

  it("reads a past page from booking_teacher_start_idx, in the index's order (no Sort), at any depth", async () => {
    await t.db.rows(sql`analyze booking`);
    const after = { value: startOf(MORE_PAST[0]!), id: MORE_PAST[0]!.id! };
    await t.db.orm.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      for (const position of [null, after]) {
        const query = selectTeachLessons(tx, { teacherId: MINE, view: 'past', at: new Date(NOW), after: position, limit: 11 }).toSQL();
        const literal = (p: unknown) => (typeof p === 'number' ? String(p) : `'${(p instanceof Date ? p.toISOString() : String(p)).replaceAll("'", "''")}'`);
        const inlined = query.sql.replace(/\$(\d+)/g, (_, i: string) => literal(query.params[Number(i) - 1]));
        const result = (await tx.execute(sql.raw(`explain ${inlined}`))) as unknown;
        const planRows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[];
        const plan = planRows.map((r) => Object.values(r).join('')).join('\n');
        expect(plan).toContain('booking_teacher_start_idx');
        expect(plan).not.toMatch(/Sort/);
      }
    });
  });
});
