import {
  reviewMessages,
  type BookingCreated,
  type Lesson,
  type LessonReviewState,
  type SlotsResponse,
  type Teacher,
  type TeacherReviewsPage,
} from '@learnlingo/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatedTeacherId } from '../../catalogue/index.js';
import { booking, catalogueChange, lessonReview, mailOutbox, staffActivity, teacher, teacherAccount, teacherAvailability, user as userTable } from '../../db/schema.js';
import type { MailMessage } from '../../mail/index.js';
import { createTestApp, signUp, TEST_ORIGIN, type TestApp, type TestUser } from '../../test/app.js';
import { sweepEndedLessons } from './lesson-sweep.js';
import { createReviewService, type ReviewService } from './review-service.js';

const HOUR = 3_600_000;
/** Thursday 29 October 2026, 12:00 UTC: New York leaves summer time on Sunday 1 November. */
const START_CLOCK = Date.parse('2026-10-29T12:00:00Z');
let clock = START_CLOCK;

/** t000001: America/New_York, 09:00–11:00 every day (13:00Z/14:00Z in EDT, 14:00Z/15:00Z in EST). */
const NY = generatedTeacherId(1);
const SEED = 6;

let t: TestApp;
let reviews: ReviewService;
beforeAll(async () => {
  t = await createTestApp({
    seed: SEED,
    now: () => clock,
    env: { BOOKINGS_PER_ADDRESS_PER_HOUR: '10000', BOOKINGS_PER_EMAIL_PER_HOUR: '10000' },
  });
  await t.db.orm
    .update(teacherAvailability)
    .set({ timeZone: 'America/New_York', weeklyHours: Array.from({ length: 7 }, () => [[9, 11]]) })
    .where(eq(teacherAvailability.teacherId, NY));
  reviews = createReviewService(t.db, () => clock);
});
afterAll(() => t.close());
beforeEach(() => {
  clock = START_CLOCK;
});

const form = { reason: 'Career and business', fullName: 'Ada Lovelace', phone: '+44 (20) 7946-0958' };
let mailCounter = 0;

const as = (user: TestUser | undefined, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: user ? { cookie: user.cookie, origin: TEST_ORIGIN } : {} });

async function verifiedUser(name = 'Grace Hopper'): Promise<TestUser> {
  const u = await signUp(t.app, { name });
  await t.db.orm.update(userTable).set({ emailVerified: true }).where(eq(userTable.id, u.id));
  return u;
}

/** A signed-in staff member: an admin, or a teacher bound to `teacherId`'s profile. */
const teachers = new Map<string, TestUser>();
async function staff(role: 'admin' | 'teacher', teacherId?: string): Promise<TestUser> {
  const bound = teacherId ? teachers.get(teacherId) : undefined;
  if (bound) return bound;
  const u = await signUp(t.app);
  if (teacherId) teachers.set(teacherId, u);
  await t.db.orm.update(userTable).set({ role }).where(eq(userTable.id, u.id));
  if (teacherId) await t.db.orm.insert(teacherAccount).values({ teacherId, userId: u.id });
  return u;
}

/** The private link's token in the newest e-mail to `to` whose subject starts with `subject`. */
async function linkToken(to: string, subject: string): Promise<string> {
  const rows = await t.db.orm.select({ message: mailOutbox.message }).from(mailOutbox).where(sql`${mailOutbox.message}->>'to' = ${to}`).orderBy(mailOutbox.createdAt); // newest last: findLast takes the latest
  const mail = rows.map((r) => r.message as MailMessage).findLast((m) => m.subject.startsWith(subject));
  const token = /\/bookings\/([A-Za-z0-9_-]{43})\b/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no "${subject}" e-mail to ${to}`);
  return token;
}

/** Books `teacherId`'s free slot at `start` (ISO): as `user` (a lesson at once), or as a visitor confirmed by the link. */
async function bookAt(teacherId: string, start: string, user?: TestUser): Promise<{ id: string; token: string; email: string }> {
  const email = user?.email ?? `ada+${(mailCounter += 1)}@example.com`;
  const res = await as(user, 'POST', '/api/bookings', { ...form, fullName: user?.name ?? form.fullName, email, teacherId, start });
  expect(res.statusCode, res.body).toBe(201);
  const created = res.json<BookingCreated>();
  if (created.token !== null) return { id: created.id, token: created.token, email };
  const token = await linkToken(email, 'Confirm your');
  expect((await as(undefined, 'POST', `/api/bookings/token/${token}/confirm`)).statusCode).toBe(200);
  return { id: created.id, token, email };
}

/** The first free start of `teacherId` at or after `from`. */
async function freeSlot(teacherId: string, from = new Date(clock + 12 * HOUR).toISOString()): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${teacherId}/slots?from=${from}` });
  const slot = res.json<SlotsResponse>().slots[0];
  if (!slot) throw new Error(`no free slot of ${teacherId} from ${from}`);
  return slot;
}

const rate = (user: TestUser, bookingId: string, payload: object) => as(user, 'POST', `/api/bookings/${bookingId}/review`, payload);

async function card(id: string): Promise<Teacher> {
  const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${id}` });
  expect(res.statusCode).toBe(200);
  return res.json<Teacher>();
}

async function listIds(query: string): Promise<{ id: string; rating: number }[]> {
  const res = await t.app.inject({ method: 'GET', url: `/api/teachers?limit=50&${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ items: Teacher[] }>().items.map((x) => ({ id: x.id, rating: x.rating }));
}

async function stored(id: string) {
  const [row] = await t.db.orm
    .select({ rating: teacher.rating, reviewCount: teacher.reviewCount, lessonsDone: teacher.lessonsDone })
    .from(teacher)
    .where(eq(teacher.id, id));
  return row!;
}

const importedRatings = async (id: string) =>
  (await t.db.rows<{ r: number }>(sql`select reviewer_rating as r from review where teacher_id = ${id}`)).map((x) => Number(x.r));
const mean1 = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;

describe('asking for a review', () => {
  it('queues one "How was your lesson?" e-mail per lesson, due at its end; a cancel takes it back', async () => {
    const learner = await verifiedUser();
    const start = await freeSlot(NY, '2026-10-31T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    const [row] = await t.db.orm.select({ mailId: booking.reviewMailId }).from(booking).where(eq(booking.id, lesson.id));
    const [mail] = await t.db.orm.select().from(mailOutbox).where(eq(mailOutbox.id, row!.mailId!));
    expect((mail!.message as MailMessage).subject).toMatch(/^How was your .*trial lesson with /);
    expect((mail!.message as MailMessage).text).toContain(`/bookings/${lesson.token}`);
    expect(mail!.nextAttemptAt.getTime()).toBe(Date.parse(start) + HOUR);

    const cancelled = await as(learner, 'POST', `/api/bookings/${lesson.id}/cancel`);
    expect(cancelled.json<Lesson>().status).toBe('cancelled');
    expect(await t.db.orm.select().from(mailOutbox).where(eq(mailOutbox.id, row!.mailId!))).toEqual([]);
  });

  it("a visitor's booking asks once it is confirmed (not while it is a hold)", async () => {
    const start = await freeSlot(NY, '2026-11-02T00:00:00Z');
    const lesson = await bookAt(NY, start);
    expect(await linkToken(lesson.email, 'How was your')).toBe(lesson.token);
  });
});

describe('rating a lesson', () => {
  it('no review before the end, none for a cancelled lesson, none by anyone but its learner (404)', async () => {
    const learner = await verifiedUser();
    const other = await verifiedUser();
    const start = await freeSlot(NY, '2026-11-03T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    const early = await rate(learner, lesson.id, { rating: 5 });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ error: { code: 'REVIEW_CLOSED', message: reviewMessages.notYet } });

    clock = Date.parse(start) + HOUR - 1;
    expect((await rate(learner, lesson.id, { rating: 5 })).statusCode).toBe(409);
    clock = Date.parse(start) + HOUR;
    expect((await rate(other, lesson.id, { rating: 5 })).statusCode).toBe(404);
    expect((await as(undefined, 'POST', `/api/bookings/${lesson.id}/review`, { rating: 5 })).statusCode).toBe(401);

    // a cancelled lesson (cancelled the day before) is never rated
    clock = START_CLOCK;
    const start2 = await freeSlot(NY, '2026-11-04T00:00:00Z');
    const gone = await bookAt(NY, start2, learner);
    expect((await as(learner, 'POST', `/api/bookings/${gone.id}/cancel`)).statusCode).toBe(200);
    clock = Date.parse(start2) + 2 * HOUR;
    const states = (await as(learner, 'GET', '/api/bookings/reviews')).json<{ items: LessonReviewState[] }>().items;
    expect(states.find((s) => s.bookingId === gone.id)?.state).toBe('not-reviewable');
    expect(states.find((s) => s.bookingId === lesson.id)?.state).toBe('open');
    const refused = await rate(learner, gone.id, { rating: 4 });
    expect(refused.statusCode).toBe(409);
    expect(await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, gone.id))).toEqual([]);
  });

  it('400 naming the field for a bad rating or a comment over the cap; nothing written', async () => {
    const learner = await verifiedUser();
    const start = await freeSlot(NY, '2026-11-05T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    clock = Date.parse(start) + 2 * HOUR;
    for (const payload of [{ rating: 0 }, { rating: 6 }, { rating: 4.5 }, { rating: 'x' }, {}]) {
      const res = await rate(learner, lesson.id, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: { fields: { rating: expect.any(String) } } });
    }
    const long = await rate(learner, lesson.id, { rating: 4, comment: 'x'.repeat(1001) });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ error: { fields: { comment: reviewMessages.commentTooLong } } });
    const control = await rate(learner, lesson.id, { rating: 4, comment: 'a\u0007b' });
    expect(control.statusCode).toBe(400);
    expect(await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id))).toEqual([]);
  });

  it('one review per lesson: concurrent first posts leave one row', async () => {
    const learner = await verifiedUser();
    const start = await freeSlot(NY, '2026-11-06T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    clock = Date.parse(start) + 3 * HOUR;
    const answers = await Promise.all([1, 2, 3, 4, 5].map((rating) => rate(learner, lesson.id, { rating, comment: `take ${rating}` })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const rows = await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.comment).toBe(`take ${rows[0]!.rating}`);
    // the e-mail is not needed any more: rated before it went
    const [b] = await t.db.orm.select({ mailId: booking.reviewMailId }).from(booking).where(eq(booking.id, lesson.id));
    expect(await t.db.orm.select().from(mailOutbox).where(eq(mailOutbox.id, b!.mailId!))).toEqual([]);
  });

  it('the learner may change it for 14 days, not after', async () => {
    const learner = await verifiedUser('Alan Turing');
    const start = await freeSlot(NY, '2026-11-07T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    clock = Date.parse(start) + HOUR + 5 * 60_000;
    const first = await rate(learner, lesson.id, { rating: 2, comment: '  Plain <b>text</b>\r\nsecond line ' });
    expect(first.statusCode).toBe(200);
    const state = first.json<LessonReviewState>();
    expect(state).toMatchObject({ state: 'reviewed', editable: true, review: { rating: 2, reviewerName: 'Alan', comment: 'Plain <b>text</b>\nsecond line' } });
    const writtenAt = clock;
    clock = writtenAt + 14 * 24 * HOUR - 1;
    expect((await rate(learner, lesson.id, { rating: 3 })).json<LessonReviewState>().review?.rating).toBe(3);
    clock = writtenAt + 14 * 24 * HOUR;
    const late = await rate(learner, lesson.id, { rating: 5 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: { message: reviewMessages.editClosed } });
    const [row] = await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id));
    expect(row!.rating).toBe(3);
  });
});

describe('no-shows', () => {
  it('the teacher marks the learner absent within 48 h of the end (across the DST change): no review then', async () => {
    const learner = await verifiedUser();
    // Saturday 31 October 09:00 New York (EDT) = 13:00Z; 48 h after the end is Monday 14:00Z (09:00 EST)
    const start = '2026-10-31T13:00:00.000Z';
    const lesson = await bookAt(NY, start, learner);
    const nyTeacher = await staff('teacher', NY);
    const mark = (who: TestUser, id: string) => as(who, 'POST', `/api/teach/lessons/${id}/learner-absent`);
    clock = Date.parse(start) + HOUR - 1;
    expect((await mark(nyTeacher, lesson.id)).statusCode).toBe(409);
    expect((await mark(await staff('teacher', generatedTeacherId(3)), lesson.id)).statusCode).toBe(404);
    expect((await mark(learner, lesson.id)).statusCode).toBe(403);
    clock = Date.parse('2026-11-02T14:00:00Z') - 1;
    expect((await mark(nyTeacher, lesson.id)).statusCode).toBe(204);
    const state = (await as(learner, 'GET', '/api/bookings/reviews')).json<{ items: LessonReviewState[] }>().items.find((s) => s.bookingId === lesson.id);
    expect(state).toMatchObject({ state: 'no-show', learnerAbsent: true, canReportTeacherAbsent: false });
    expect((await as(learner, 'GET', `/api/bookings/${lesson.id}`)).json<Lesson>().noShow).toBe('learner');
    expect((await rate(learner, lesson.id, { rating: 5 })).statusCode).toBe(409);

    // a second lesson: at exactly 48 h the window is closed
    clock = START_CLOCK;
    const start2 = '2026-10-31T14:00:00.000Z';
    const late = await bookAt(NY, start2, learner);
    clock = Date.parse('2026-11-02T15:00:00Z');
    expect((await mark(nyTeacher, late.id)).statusCode).toBe(409);
  });

  it('the learner reports through the private link that the teacher did not come: the booking carries it', async () => {
    const start = await freeSlot(NY, '2026-11-08T00:00:00Z');
    const lesson = await bookAt(NY, start);
    clock = Date.parse(start) + 2 * HOUR;
    const before = (await as(undefined, 'GET', `/api/bookings/token/${lesson.token}/review`)).json<LessonReviewState>();
    expect(before).toMatchObject({ state: 'open', canReportTeacherAbsent: true });
    const res = await as(undefined, 'POST', `/api/bookings/token/${lesson.token}/teacher-absent`);
    expect(res.statusCode).toBe(200);
    expect(res.json<LessonReviewState>()).toMatchObject({ state: 'no-show', teacherAbsent: true });
    const [row] = await t.db.orm.select({ at: booking.teacherAbsentAt }).from(booking).where(eq(booking.id, lesson.id));
    expect(row!.at?.getTime()).toBe(clock);
    // the booking API says so (the console's bookings list shows it)
    expect((await as(undefined, 'GET', `/api/bookings/token/${lesson.token}`)).json<Lesson>().noShow).toBe('teacher');
    const listed = await as(await staff('admin'), 'GET', `/api/staff/bookings?teacherId=${NY}&status=past&pageSize=100`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ items: { id: string; noShow?: string | null }[] }>().items.find((b) => b.id === lesson.id)?.noShow).toBe('teacher');
    expect((await as(undefined, 'POST', `/api/bookings/token/${lesson.token}/review`, { rating: 1 })).statusCode).toBe(409);
    expect((await as(undefined, 'POST', `/api/bookings/token/${'x'.repeat(43)}/teacher-absent`)).statusCode).toBe(404);
  });
});

describe('the numbers follow', () => {
  it('rating and count from the visible reviews after add, edit and hide; the card, the sort, the search and the stats follow', async () => {
    // the teacher with the fewest imported reviews moves the most
    const [pick] = await t.db.rows<{ id: string }>(
      sql`select t.id from teacher t where t.id <> ${NY} order by (select count(*) from review r where r.teacher_id = t.id), t.id limit 1`,
    );
    const id = pick!.id;
    const imported = await importedRatings(id);
    const statsBefore = (await t.app.inject({ method: 'GET', url: '/api/stats' })).json<{ reviews: number; lessonsDone: number }>();
    const lessonsBefore = (await stored(id)).lessonsDone;

    const learner = await verifiedUser('Katherine Johnson');
    const start = await freeSlot(id);
    const lesson = await bookAt(id, start, learner);
    clock = Date.parse(start) + 2 * HOUR;
    expect((await rate(learner, lesson.id, { rating: 1, comment: 'Too fast for me.' })).statusCode).toBe(200);

    expect(await stored(id)).toMatchObject({ rating: mean1([...imported, 1]), reviewCount: imported.length + 1, lessonsDone: lessonsBefore + 1 });
    const c = await card(id);
    expect(c.rating).toBe(mean1([...imported, 1]));
    expect(c.reviews[0]).toMatchObject({ reviewer_name: 'Katherine', reviewer_rating: 1, comment: 'Too fast for me.', lesson: true, date: start.replace('.000', '') });
    const byRating = await listIds('sort=rating');
    expect(byRating.map((x) => x.rating)).toEqual([...byRating.map((x) => x.rating)].sort((a, b) => b - a));
    expect(byRating.find((x) => x.id === id)?.rating).toBe(mean1([...imported, 1]));
    // the search index: the teacher's name finds them with the new rating
    const surname = c.surname;
    const found = await listIds(`q=${encodeURIComponent(surname)}&sort=rating`);
    expect(found.find((x) => x.id === id)?.rating).toBe(mean1([...imported, 1]));
    const stats = (await t.app.inject({ method: 'GET', url: '/api/stats' })).json<{ reviews: number; lessonsDone: number }>();
    expect(stats.reviews).toBe(statsBefore.reviews + 1);
    expect(stats.lessonsDone).toBe(statsBefore.lessonsDone + 1);

    // edit
    expect((await rate(learner, lesson.id, { rating: 5 })).statusCode).toBe(200);
    expect((await card(id)).rating).toBe(mean1([...imported, 5]));
    expect((await listIds('sort=rating')).find((x) => x.id === id)?.rating).toBe(mean1([...imported, 5]));

    // hide: the review leaves the rating, the count, the card and the page; its learner sees why
    const [review] = await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id));
    const hidden = await reviews.hide(review!.id, 'Names another learner');
    expect(hidden?.hidden).toMatchObject({ reason: 'Names another learner' });
    expect(await stored(id)).toMatchObject({ reviewCount: imported.length });
    const after = await card(id);
    expect(after.reviews.some((r) => r.lesson)).toBe(false);
    expect(after.rating).toBe(imported.length > 0 ? mean1(imported) : (await t.db.rows<{ r: number }>(sql`select rating_imported as r from teacher where id = ${id}`))[0]!.r);
    const page = (await t.app.inject({ method: 'GET', url: `/api/teachers/${id}/reviews` })).json<TeacherReviewsPage>();
    expect(page.total).toBe(imported.length);
    expect(page.items.some((r) => r.kind === 'lesson')).toBe(false);
    const mine = (await as(learner, 'GET', '/api/bookings/reviews')).json<{ items: LessonReviewState[] }>().items.find((s) => s.bookingId === lesson.id);
    expect(mine).toMatchObject({ editable: false, review: { hidden: { reason: 'Names another learner' } } });
    expect((await rate(learner, lesson.id, { rating: 4 })).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'GET', url: '/api/stats' })).json<{ reviews: number }>().reviews).toBe(statsBefore.reviews);
  });
});

describe('lessons done follows lessons that end', () => {
  it('the sweep counts a lesson at its end, never a cancelled one; a learner no-show un-counts it; two sweeps count once', async () => {
    const id = generatedTeacherId(4);
    const learner = await verifiedUser('Mary Somerville');
    const start = await freeSlot(id, '2026-11-10T00:00:00Z');
    const lesson = await bookAt(id, start, learner);
    const start2 = await freeSlot(id, new Date(Date.parse(start) + HOUR).toISOString());
    const gone = await bookAt(id, start2, learner);
    expect((await as(learner, 'POST', `/api/bookings/${gone.id}/cancel`)).statusCode).toBe(200);
    const end = Date.parse(start) + HOUR;
    const feed = async () => (await t.db.orm.select().from(catalogueChange).where(eq(catalogueChange.teacherId, id))).length;

    // just before the end: whatever else of this teacher ended is counted, this lesson is not
    await sweepEndedLessons(t.db, end - 1);
    const before = (await stored(id)).lessonsDone;
    expect((await card(id)).lessons_done).toBe(before);
    clock = end - 1;
    expect(await sweepEndedLessons(t.db, clock)).toEqual({ teachers: 0, lessons: 0 });

    // at its end: counted, through the write path (the card follows); the cancelled one never
    clock = end;
    expect(await sweepEndedLessons(t.db, clock)).toEqual({ teachers: 1, lessons: 1 });
    expect((await stored(id)).lessonsDone).toBe(before + 1);
    expect((await card(id)).lessons_done).toBe(before + 1);
    clock = Date.parse(start2) + 2 * HOUR;
    expect(await sweepEndedLessons(t.db, clock)).toEqual({ teachers: 0, lessons: 0 });
    expect((await stored(id)).lessonsDone).toBe(before + 1);

    // the teacher marks the learner absent: the lesson did not take place after all
    expect((await as(await staff('teacher', id), 'POST', `/api/teach/lessons/${lesson.id}/learner-absent`)).statusCode).toBe(204);
    expect((await stored(id)).lessonsDone).toBe(before);
    expect((await card(id)).lessons_done).toBe(before);
    expect(await sweepEndedLessons(t.db, clock)).toEqual({ teachers: 0, lessons: 0 });
    expect((await stored(id)).lessonsDone).toBe(before);

    // two servers sweeping at once: one counts the lesson, the other writes nothing
    clock = START_CLOCK;
    const start3 = await freeSlot(id, new Date(Date.parse(start2) + HOUR).toISOString());
    await bookAt(id, start3, learner);
    clock = Date.parse(start3) + HOUR;
    const feedBefore = await feed();
    const both = await Promise.all([sweepEndedLessons(t.db, clock), sweepEndedLessons(t.db, clock)]);
    expect(both.reduce((n, r) => n + r.lessons, 0)).toBe(1);
    expect((await stored(id)).lessonsDone).toBe(before + 1);
    expect(await feed()).toBe(feedBefore + 1);
  });

  it("a lesson's end is its start plus an hour across New York's DST change (Sunday 1 November, 09:00 EST)", async () => {
    // a teacher of its own (the tests move the clock back and forth; a recount is as of its clock)
    const id = generatedTeacherId(6);
    await t.db.orm
      .update(teacherAvailability)
      .set({ timeZone: 'America/New_York', weeklyHours: Array.from({ length: 7 }, () => [[9, 11]]) })
      .where(eq(teacherAvailability.teacherId, id));
    clock = START_CLOCK;
    // the first lesson after the clocks went back: 09:00 EST is 14:00Z (it was 13:00Z the day before)
    const start = '2026-11-01T14:00:00.000Z';
    await bookAt(id, start, await verifiedUser());
    const end = Date.parse('2026-11-01T15:00:00Z');
    await sweepEndedLessons(t.db, end - 1);
    const before = (await stored(id)).lessonsDone;
    expect(await sweepEndedLessons(t.db, end - 1)).toEqual({ teachers: 0, lessons: 0 });
    expect(await sweepEndedLessons(t.db, end)).toEqual({ teachers: 1, lessons: 1 });
    expect((await stored(id)).lessonsDone).toBe(before + 1);
  });
});

describe('the teacher answers, the school hides', () => {
  it('once, only that teacher (another 404, a learner 403); the answer shows under the review; a hide is audited', async () => {
    const learner = await verifiedUser('Ada Byron');
    const start = await freeSlot(NY, '2026-11-09T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    clock = Date.parse(start) + 2 * HOUR;
    await rate(learner, lesson.id, { rating: 4, comment: 'Good.' });
    const [review] = await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id));
    const id = review!.id;

    const nyTeacher = await staff('teacher', NY);
    const otherTeacher = await staff('teacher', generatedTeacherId(2));
    const admin = await staff('admin');
    expect((await as(learner, 'GET', '/api/teach/reviews')).statusCode).toBe(403);
    expect((await as(undefined, 'GET', '/api/teach/reviews')).statusCode).toBe(401);
    expect((await as(otherTeacher, 'GET', '/api/teach/reviews')).json<{ items: { id: string }[] }>().items.map((r) => r.id)).not.toContain(id);
    expect((await as(nyTeacher, 'GET', '/api/teach/reviews')).json<{ items: { id: string }[] }>().items.map((r) => r.id)).toContain(id);

    expect((await as(otherTeacher, 'POST', `/api/teach/reviews/${id}/reply`, { reply: 'Not mine' })).statusCode).toBe(404);
    expect((await as(learner, 'POST', `/api/teach/reviews/${id}/reply`, { reply: 'Me' })).statusCode).toBe(403);
    const empty = await as(nyTeacher, 'POST', `/api/teach/reviews/${id}/reply`, { reply: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: { fields: { reply: reviewMessages.replyRequired } } });
    const answered = await as(nyTeacher, 'POST', `/api/teach/reviews/${id}/reply`, { reply: 'Thank you, Ada!' });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({ reply: 'Thank you, Ada!' });
    expect((await as(nyTeacher, 'POST', `/api/teach/reviews/${id}/reply`, { reply: 'Again' })).statusCode).toBe(409);
    expect((await card(NY)).reviews[0]).toMatchObject({ comment: 'Good.', reply: 'Thank you, Ada!' });

    // the school: admins only; a reason is required; the audit log has the hide
    expect((await as(learner, 'POST', `/api/staff/reviews/${id}/hide`, { reason: 'x' })).statusCode).toBe(403);
    expect((await as(nyTeacher, 'POST', `/api/staff/reviews/${id}/hide`, { reason: 'x' })).statusCode).toBe(403);
    expect((await as(admin, 'POST', `/api/staff/reviews/${id}/hide`, { reason: '' })).statusCode).toBe(400);
    expect((await as(admin, 'POST', `/api/staff/reviews/${crypto.randomUUID()}/hide`, { reason: 'Spam' })).statusCode).toBe(404);
    const hidden = await as(admin, 'POST', `/api/staff/reviews/${id}/hide`, { reason: 'Shares a phone number' });
    expect(hidden.statusCode).toBe(200);
    const [audit] = await t.db.orm.select().from(staffActivity).where(eq(staffActivity.subjectId, id));
    expect(audit).toMatchObject({ action: 'review.hide', actorUserId: admin.id, after: { hidden: true, reason: 'Shares a phone number', teacherId: NY } });
    // the teacher sees that it was hidden and why; the public no longer does
    const about = (await as(nyTeacher, 'GET', '/api/teach/reviews')).json<{ items: { id: string; hidden: unknown }[] }>().items.find((r) => r.id === id);
    expect(about?.hidden).toMatchObject({ reason: 'Shares a phone number' });
    expect((await card(NY)).reviews.some((r) => r.comment === 'Good.')).toBe(false);
    expect((await as(admin, 'GET', '/api/staff/reviews')).json<{ items: { id: string }[] }>().items.map((r) => r.id)).toContain(id);
  });
});

describe('the forms without JavaScript', () => {
  const post = (user: TestUser | undefined, url: string, body: string, origin = TEST_ORIGIN) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...(user ? { cookie: user.cookie } : {}) },
    });
  const flashOf = (res: { headers: Record<string, unknown> }) => /ll_flash=(\w+)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];

  it("rate on My lessons and by the private link, the teacher's answer: 303 back with the status; refusals named", async () => {
    const learner = await verifiedUser('Emmy Noether');
    const start = await freeSlot(NY, '2026-11-11T00:00:00Z');
    const lesson = await bookAt(NY, start, learner);
    const url = `/lessons/${lesson.id}/review`;

    const early = await post(learner, url, 'rating=5');
    expect([early.statusCode, early.headers.location, flashOf(early)]).toEqual([303, `/lessons#review-${lesson.id}`, 'reviewNotYet']);
    clock = Date.parse(start) + 2 * HOUR;
    expect((await post(learner, url, 'rating=5', 'https://evil.example')).statusCode).toBe(403);
    const visitor = await post(undefined, url, 'rating=5');
    expect([visitor.statusCode, visitor.headers.location]).toEqual([303, '/login?next=%2Flessons']);
    expect((await post(await verifiedUser(), url, 'rating=5')).statusCode).toBe(404);
    expect(flashOf(await post(learner, url, 'comment=No+stars'))).toBe('reviewRatingRequired');
    expect(flashOf(await post(learner, url, `rating=4&comment=${'x'.repeat(1001)}`))).toBe('reviewCommentTooLong');
    expect(await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id))).toEqual([]);

    const taken = await post(learner, url, 'rating=4&comment=Clear+and+kind.');
    expect([taken.statusCode, taken.headers.location, flashOf(taken)]).toEqual([303, `/lessons#review-${lesson.id}`, 'reviewSaved']);
    const [row] = await t.db.orm.select().from(lessonReview).where(eq(lessonReview.bookingId, lesson.id));
    expect(row).toMatchObject({ rating: 4, comment: 'Clear and kind.' });

    // the teacher answers from /teach/reviews: once
    const nyTeacher = await staff('teacher', NY);
    const replyUrl = `/teach/reviews/${row!.id}/reply`;
    expect(flashOf(await post(nyTeacher, replyUrl, 'reply=+'))).toBe('replyRequired');
    expect((await post(learner, replyUrl, 'reply=Me')).statusCode).toBe(403);
    const answered = await post(nyTeacher, replyUrl, 'reply=Thank+you%2C+Emmy!');
    expect([answered.statusCode, answered.headers.location, flashOf(answered)]).toEqual([303, `/teach/reviews#review-${row!.id}`, 'replySaved']);
    expect(flashOf(await post(nyTeacher, replyUrl, 'reply=Again'))).toBe('replyExists');
    expect((await card(NY)).reviews[0]).toMatchObject({ comment: 'Clear and kind.', reply: 'Thank you, Emmy!' });

    // the private link: a visitor's lesson, rated and then reported too late
    clock = START_CLOCK;
    const start2 = await freeSlot(NY, new Date(Date.parse(start) + HOUR).toISOString());
    const visit = await bookAt(NY, start2);
    clock = Date.parse(start2) + 2 * HOUR;
    const byLink = await post(undefined, `/bookings/${visit.token}/review`, 'rating=3');
    expect([byLink.statusCode, byLink.headers.location, flashOf(byLink)]).toEqual([303, `/bookings/${visit.token}`, 'reviewSaved']);
    expect(flashOf(await post(undefined, `/bookings/${visit.token}/teacher-absent`, ''))).toBe('noShowClosed');
    expect((await post(undefined, `/bookings/${'x'.repeat(43)}/review`, 'rating=3')).statusCode).toBe(404);
  });
});

describe('the school hides an imported review', () => {
  it('with a reason (admins only, audited): it leaves the rating, the count, the card and the page', async () => {
    const [pick] = await t.db.rows<{ id: string }>(
      sql`select t.id from teacher t where (select count(*) from review r where r.teacher_id = t.id) >= 2 order by t.id desc limit 1`,
    );
    const id = pick!.id;
    const admin = await staff('admin');
    const listed = await as(admin, 'GET', `/api/staff/teachers/${id}/imported-reviews`);
    expect(listed.statusCode, listed.body).toBe(200);
    const items = listed.json<{ items: { id: number; rating: number; comment: string; hidden: unknown }[] }>().items;
    const [target, ...rest] = items;
    const lessonRatings = (await t.db.orm.select({ r: lessonReview.rating }).from(lessonReview).where(sql`${lessonReview.teacherId} = ${id} and ${lessonReview.hiddenAt} is null`)).map((x) => x.r);

    const url = `/api/staff/imported-reviews/${target!.id}/hide`;
    expect((await as(await staff('teacher', id), 'POST', url, { reason: 'x' })).statusCode).toBe(403);
    const empty = await as(admin, 'POST', url, { reason: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: { fields: { reason: reviewMessages.reasonRequired } } });
    expect((await as(admin, 'POST', '/api/staff/imported-reviews/abc/hide', { reason: 'Spam' })).statusCode).toBe(400);
    expect((await as(admin, 'POST', '/api/staff/imported-reviews/2147483647/hide', { reason: 'Spam' })).statusCode).toBe(404);
    expect((await as(admin, 'GET', '/api/staff/teachers/t999999/imported-reviews')).statusCode).toBe(404);

    const hidden = await as(admin, 'POST', url, { reason: 'Not about a lesson' });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(hidden.json()).toMatchObject({ id: target!.id, hidden: { reason: 'Not about a lesson' } });
    const visible = [...rest.map((r) => r.rating), ...lessonRatings];
    expect(await stored(id)).toMatchObject({ reviewCount: visible.length, rating: mean1(visible) });
    const c = await card(id);
    expect(c.rating).toBe(mean1(visible));
    expect(c.reviews.filter((r) => !r.lesson).map((r) => r.comment)).toEqual(rest.map((r) => r.comment));
    const page = (await t.app.inject({ method: 'GET', url: `/api/teachers/${id}/reviews` })).json<TeacherReviewsPage>();
    expect(page.total).toBe(visible.length);
    expect(page.items.filter((r) => r.kind === 'imported').map((r) => r.comment)).toEqual(rest.map((r) => r.comment).slice(0, page.items.filter((r) => r.kind === 'imported').length));
    const [audit] = await t.db.orm.select().from(staffActivity).where(eq(staffActivity.subjectId, String(target!.id)));
    expect(audit).toMatchObject({ action: 'review.hide', subjectType: 'imported-review', after: { hidden: true, reason: 'Not about a lesson', teacherId: id } });
    // the console still lists it, with why
    const again = (await as(admin, 'GET', `/api/staff/teachers/${id}/imported-reviews`)).json<{ items: { id: number; hidden: unknown }[] }>().items;
    expect(again.find((r) => r.id === target!.id)?.hidden).toMatchObject({ reason: 'Not about a lesson' });
  });
});

describe("the teacher page's reviews", () => {
  it('pages newest first or lowest rating first; 400 for a bad sort or page, 404 for an unknown teacher', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/teachers/${NY}/reviews?sort=lowest` });
    expect(res.statusCode).toBe(200);
    const page = res.json<TeacherReviewsPage>();
    const ratings = page.items.map((r) => r.reviewer_rating);
    expect(ratings).toEqual([...ratings].sort((a, b) => a - b));
    const newest = (await t.app.inject({ method: 'GET', url: `/api/teachers/${NY}/reviews` })).json<TeacherReviewsPage>();
    expect(newest.items[0]?.kind).toBe('lesson');
    const kinds = newest.items.map((r) => r.kind);
    expect(kinds.indexOf('imported') === -1 || kinds.lastIndexOf('lesson') < kinds.indexOf('imported')).toBe(true);
    expect(newest.total).toBe((await stored(NY)).reviewCount);
    expect((await t.app.inject({ method: 'GET', url: `/api/teachers/${NY}/reviews?sort=best` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/teachers/${NY}/reviews?page=0` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/teachers/t999999/reviews' })).statusCode).toBe(404);
  });
});
