import { randomUUID } from 'node:crypto';
import {
  NO_SHOW_HOURS,
  REVIEW_EDIT_DAYS,
  REVIEWS_PAGE_SIZE,
  reviewMessages,
  type ImportedReview,
  type LessonReview,
  type LessonReviewState,
  type ReviewSort,
} from '@learnlingo/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { rowsOf, writeWithRating } from '../../catalogue/index.js';
import type { Database, Db } from '../../db/client.js';
import { booking, lessonReview, mailOutbox, review, teacher } from '../../db/schema.js';
import { HttpError } from '../../plugins/errors.js';

/*
 * Reviews of lessons (issue 26, decision 112). A lesson can be rated by its learner once it
 * has ended, if it took place (not cancelled, no one marked absent); one review per lesson
 * (the unique booking_id: concurrent posts leave one row), which the learner may change for
 * REVIEW_EDIT_DAYS. Each change of a review, an answer, a hide or a no-show goes through
 * writeWithRating: one transaction with the teacher's rating, count and lessons done
 * recomputed and the change feed appended, so every server's catalogue follows.
 */

const HOUR_MS = 3_600_000;
const LESSON_MS = HOUR_MS;
const EDIT_MS = REVIEW_EDIT_DAYS * 24 * HOUR_MS;
const NO_SHOW_MS = NO_SHOW_HOURS * HOUR_MS;

/** A booking as the review rules read it, with its review if it has one. */
export interface ReviewedBooking {
  id: string;
  teacherId: string;
  teacherName: string;
  userId: string | null;
  fullName: string;
  language: string | null;
  start: Date | null;
  cancelledAt: Date | null;
  holdExpiresAt: Date | null;
  learnerAbsentAt: Date | null;
  teacherAbsentAt: Date | null;
  review: ReviewRow | null;
}

type ReviewRow = typeof lessonReview.$inferSelect;

const bookingColumns = {
  id: booking.id,
  teacherId: booking.teacherId,
  teacherFirst: teacher.name,
  teacherLast: teacher.surname,
  userId: booking.userId,
  fullName: booking.fullName,
  language: booking.language,
  start: booking.start,
  cancelledAt: booking.cancelledAt,
  holdExpiresAt: booking.holdExpiresAt,
  learnerAbsentAt: booking.learnerAbsentAt,
  teacherAbsentAt: booking.teacherAbsentAt,
  review: lessonReview,
};

const selectBookings = (orm: Db) =>
  orm
    .select(bookingColumns)
    .from(booking)
    .innerJoin(teacher, eq(teacher.id, booking.teacherId))
    .leftJoin(lessonReview, eq(lessonReview.bookingId, booking.id));

function toReviewed(row: Awaited<ReturnType<typeof selectBookings>>[number]): ReviewedBooking {
  const { teacherFirst, teacherLast, review, ...rest } = row;
  return { ...rest, teacherName: `${teacherFirst} ${teacherLast}`, review: review ?? null };
}

/** The learner's first name as a review shows it (the booking's full name's first word). */
export const firstName = (fullName: string) => (fullName.trim().split(/\s+/)[0] ?? '').slice(0, 100) || 'Learner';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toLessonReview(r: ReviewRow, teacherName: string): LessonReview {
  return {
    id: r.id,
    bookingId: r.bookingId,
    teacherId: r.teacherId,
    teacherName,
    reviewerName: r.reviewerName,
    language: r.language,
    lessonStart: r.lessonStart.toISOString(),
    rating: r.rating,
    comment: r.comment,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    editableUntil: new Date(r.createdAt.getTime() + EDIT_MS).toISOString(),
    reply: r.reply,
    repliedAt: iso(r.repliedAt),
    hidden: r.hiddenAt ? { at: r.hiddenAt.toISOString(), reason: r.hiddenReason ?? '' } : null,
  };
}

type ImportedRow = typeof review.$inferSelect;

function toImportedReview(r: ImportedRow, teacherName: string): ImportedReview {
  return {
    id: r.id,
    teacherId: r.teacherId,
    teacherName,
    reviewerName: r.reviewerName,
    rating: r.reviewerRating,
    comment: r.comment,
    hidden: r.hiddenAt ? { at: r.hiddenAt.toISOString(), reason: r.hiddenReason ?? '' } : null,
  };
}

/** Whether `b` is a lesson (not a hold, not cancelled, with a time) and when it ends. */
function lessonEnd(b: ReviewedBooking): number | null {
  if (b.cancelledAt || b.holdExpiresAt || !b.start) return null;
  return b.start.getTime() + LESSON_MS;
}

/** What the learner may do about `b`'s review at `at`. */
export function reviewState(b: ReviewedBooking, at: number): LessonReviewState {
  const end = lessonEnd(b);
  const teacherAbsent = b.teacherAbsentAt !== null;
  const learnerAbsent = b.learnerAbsentAt !== null;
  const review = b.review ? toLessonReview(b.review, b.teacherName) : null;
  let state: LessonReviewState['state'];
  if (end === null) state = 'not-reviewable';
  else if (at < end) state = 'upcoming';
  else if (teacherAbsent || learnerAbsent) state = 'no-show';
  else if (review) state = 'reviewed';
  else state = 'open';
  return {
    bookingId: b.id,
    state,
    review,
    editable: state === 'reviewed' && !b.review!.hiddenAt && at < b.review!.createdAt.getTime() + EDIT_MS,
    canReportTeacherAbsent: state === 'open' && at < end! + NO_SHOW_MS,
    teacherAbsent,
    learnerAbsent,
  };
}

const conflict = (message: string) => new HttpError(409, 'REVIEW_CLOSED', message);
const reviewNotFound = () => new HttpError(404, 'NOT_FOUND', 'No such review');

/**
 * A page of a teacher's visible reviews in one statement (issue 29: it was two, the figures
 * and then the page, each parsed and planned anew): the teacher's stored rating and count,
 * and the page's reviews as a JSON array in publicReviewSchema's shape (compact, as
 * JSON.stringify writes it: row_to_json, joined with commas) — `kind`, the name,
 * the rating (a float8, as the API has always sent it), the comment, the lesson's start as
 * `Date#toISOString` writes it (UTC, milliseconds), its language and the teacher's answer.
 * Lesson reviews first by date, then the imported in their order (`newest`), or lowest
 * rating first; ties by kind, date, position and id. No row: no such (visible) teacher.
 * Parameters: $1 the teacher's id, $2 the offset.
 */
function publicPageStatement(order: (alias: string) => string): string {
  return `select t.rating, coalesce(t.review_count, (select count(*)::int from review r where r.teacher_id = t.id and r.hidden_at is null)) as total,
    (select '[' || coalesce(string_agg(row_to_json(j)::text, ',' order by ${order('p')}), '') || ']'
      from (select v.* from (
          select 0 as kind, lr.reviewer_name as name, lr.rating::float8 as rating, lr.comment, lr.created_at as at, lr.lesson_start as start,
                 lr.language, lr.reply, 0 as pos, lr.id::text as id
          from lesson_review lr where lr.teacher_id = $1 and lr.hidden_at is null
          union all
          select 1, rv.reviewer_name, rv.reviewer_rating, rv.comment, null, null, null, null, rv.position, rv.id::text
          from review rv where rv.teacher_id = $1 and rv.hidden_at is null) v
        order by ${order('v')}
        limit ${REVIEWS_PAGE_SIZE} offset $2) p,
        lateral (select case when p.kind = 0 then 'lesson' else 'imported' end as kind, p.name as reviewer_name, p.rating as reviewer_rating,
          p.comment, to_char(p.start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date, p.language, p.reply) j) as items
  from teacher t where t.id = $1 and not t.hidden`;
}

const PUBLIC_PAGE_STATEMENTS: Record<ReviewSort, string> = {
  newest: publicPageStatement((v) => `${v}.kind asc, ${v}.at desc nulls last, ${v}.pos asc, ${v}.id asc`),
  lowest: publicPageStatement((v) => `${v}.rating asc, ${v}.kind asc, ${v}.at desc nulls last, ${v}.pos asc, ${v}.id asc`),
};

export interface ReviewMailRef {
  id: string;
  start: Date;
}

export function createReviewService(db: Database, now: () => number) {
  async function findBooking(where: ReturnType<typeof and>): Promise<ReviewedBooking | null> {
    const [row] = await selectBookings(db.orm).where(where);
    return row ? toReviewed(row) : null;
  }

  return {
    /** The booking `id` if `userId` owns it. */
    owned: (id: string, userId: string) => findBooking(and(eq(booking.id, id), eq(booking.userId, userId))),
    /** The booking behind a private link's token hash. */
    byTokenHash: (tokenHash: string) => findBooking(eq(booking.tokenHash, tokenHash)),

    /** The review states of the user's lessons (their latest 500 bookings, as My lessons lists them). */
    async states(userId: string): Promise<LessonReviewState[]> {
      const rows = await selectBookings(db.orm)
        .where(eq(booking.userId, userId))
        .orderBy(sql`${booking.start} desc nulls last`, desc(booking.createdAt))
        .limit(500);
      const at = now();
      return rows.map((row) => reviewState(toReviewed(row), at));
    },

    /**
     * Writes the learner's review of `b` (the caller checked it is theirs), or changes it
     * within the edit window. 409 before the lesson's end, for a lesson that did not take
     * place, and after the window. Concurrent first posts leave one row (the last one's words).
     */
    async submit(b: ReviewedBooking, input: { rating: number; comment: string }): Promise<LessonReviewState> {
      const at = now();
      const state = reviewState(b, at);
      if (state.state === 'upcoming') throw conflict(reviewMessages.notYet);
      if (state.state !== 'open' && state.state !== 'reviewed') throw conflict(reviewMessages.notReviewable);
      if (state.state === 'reviewed' && !state.editable) throw conflict(reviewMessages.editClosed);
      const when = new Date(at);
      const written = await writeWithRating(db, b.teacherId, when, async (tx) => {
        const rows = await rowsOf<{ id: string }>(
          tx,
          sql`insert into ${lessonReview} (id, booking_id, teacher_id, user_id, reviewer_name, language, lesson_start, rating, comment, created_at, updated_at)
              select ${randomUUID()}, b.id, b.teacher_id, b.user_id, ${firstName(b.fullName)}, b.language, b.start, ${input.rating}, ${input.comment}, ${when.toISOString()}::timestamptz, ${when.toISOString()}::timestamptz
              from ${booking} b
              where b.id = ${b.id} and b.learner_absent_at is null and b.teacher_absent_at is null and b.cancelled_at is null
              on conflict (booking_id) do update set rating = excluded.rating, comment = excluded.comment, updated_at = excluded.updated_at
                where lesson_review.hidden_at is null and lesson_review.created_at > ${new Date(at - EDIT_MS).toISOString()}::timestamptz
              returning id`,
        );
        // the review's e-mail has done its work (or never needs to go)
        if (rows.length > 0) await takeBackReviewMail(tx, b.id);
        return rows.length > 0 ? rows[0]!.id : null;
      });
      const after = await findBooking(eq(booking.id, b.id));
      if (!written) {
        // a no-show marked or a window closed meanwhile
        throw conflict(after && reviewState(after, now()).state === 'reviewed' ? reviewMessages.editClosed : reviewMessages.notReviewable);
      }
      return reviewState(after!, now());
    },

    /** The learner reports that the teacher did not come (within NO_SHOW_HOURS of the end, before any review). */
    async reportTeacherAbsent(b: ReviewedBooking): Promise<LessonReviewState> {
      const at = now();
      const end = lessonEnd(b);
      if (end === null || at < end) throw conflict(reviewMessages.notReviewable);
      if (b.teacherAbsentAt) return reviewState(b, at);
      if (at >= end + NO_SHOW_MS || b.review || b.learnerAbsentAt) throw conflict(reviewMessages.noShowClosed);
      await writeWithRating(db, b.teacherId, new Date(at), async (tx) => {
        const changed = await tx
          .update(booking)
          .set({ teacherAbsentAt: new Date(at) })
          .where(and(eq(booking.id, b.id), sql`${booking.teacherAbsentAt} is null and ${booking.learnerAbsentAt} is null`,
            sql`not exists (select 1 from ${lessonReview} r where r.booking_id = ${b.id})`))
          .returning({ id: booking.id });
        if (changed.length > 0) await takeBackReviewMail(tx, b.id);
        return changed.length > 0 ? true : null;
      });
      const after = await findBooking(eq(booking.id, b.id));
      if (!after?.teacherAbsentAt) throw conflict(reviewMessages.noShowClosed);
      return reviewState(after, now());
    },

    /** The teacher marks that the learner did not come: their lesson, ended less than NO_SHOW_HOURS ago, not reviewed. 404 for another teacher's. */
    async markLearnerAbsent(teacherId: string, bookingId: string): Promise<void> {
      const b = await findBooking(and(eq(booking.id, bookingId), eq(booking.teacherId, teacherId)));
      if (!b) throw new HttpError(404, 'NOT_FOUND', 'No such lesson');
      const at = now();
      const end = lessonEnd(b);
      if (end === null || at < end) throw conflict(reviewMessages.notReviewable);
      if (b.learnerAbsentAt) return;
      if (at >= end + NO_SHOW_MS || b.review || b.teacherAbsentAt) throw conflict(reviewMessages.noShowClosed);
      const changed = await writeWithRating(db, teacherId, new Date(at), async (tx) => {
        const rows = await tx
          .update(booking)
          .set({ learnerAbsentAt: new Date(at) })
          .where(and(eq(booking.id, b.id), sql`${booking.learnerAbsentAt} is null and ${booking.teacherAbsentAt} is null`,
            sql`not exists (select 1 from ${lessonReview} r where r.booking_id = ${b.id})`))
          .returning({ id: booking.id });
        if (rows.length > 0) await takeBackReviewMail(tx, b.id);
        return rows.length > 0 ? true : null;
      });
      if (!changed) throw conflict(reviewMessages.noShowClosed);
    },

    /** Every review about the teacher, hidden ones too, newest first (/teach). */
    async aboutTeacher(teacherId: string): Promise<LessonReview[]> {
      const rows = await db.orm
        .select({ review: lessonReview, first: teacher.name, last: teacher.surname })
        .from(lessonReview)
        .innerJoin(teacher, eq(teacher.id, lessonReview.teacherId))
        .where(eq(lessonReview.teacherId, teacherId))
        .orderBy(desc(lessonReview.createdAt), lessonReview.id)
        .limit(1000);
      return rows.map((r) => toLessonReview(r.review, `${r.first} ${r.last}`));
    },

    /** The newest reviews, hidden ones too (the school's console). */
    async latest(limit = 200): Promise<LessonReview[]> {
      const rows = await db.orm
        .select({ review: lessonReview, first: teacher.name, last: teacher.surname })
        .from(lessonReview)
        .innerJoin(teacher, eq(teacher.id, lessonReview.teacherId))
        .orderBy(desc(lessonReview.createdAt), lessonReview.id)
        .limit(limit);
      return rows.map((r) => toLessonReview(r.review, `${r.first} ${r.last}`));
    },

    /** The teacher's one public answer; 404 for a review about someone else, 409 if answered. */
    async reply(teacherId: string, reviewId: string, text: string): Promise<LessonReview> {
      const at = new Date(now());
      const [found] = await db.orm.select().from(lessonReview).where(and(eq(lessonReview.id, reviewId), eq(lessonReview.teacherId, teacherId)));
      if (!found) throw reviewNotFound();
      if (found.reply !== null) throw conflict(reviewMessages.alreadyAnswered);
      // the answer shows on the card and the page: re-projected like any change of the teacher
      const done = await writeWithRating(db, teacherId, at, async (tx) => {
        const rows = await tx
          .update(lessonReview)
          .set({ reply: text, repliedAt: at })
          .where(and(eq(lessonReview.id, reviewId), sql`${lessonReview.reply} is null`))
          .returning({ id: lessonReview.id });
        return rows.length > 0 ? true : null;
      });
      if (!done) throw conflict(reviewMessages.alreadyAnswered);
      return (await this.one(reviewId))!;
    },

    /** The school hides a review with a reason (`audit`: its record, in the same transaction). null: no such review. */
    async hide(reviewId: string, reason: string, audit?: (tx: Db, review: ReviewRow) => Promise<void>): Promise<LessonReview | null> {
      const at = new Date(now());
      const [found] = await db.orm.select().from(lessonReview).where(eq(lessonReview.id, reviewId));
      if (!found) return null;
      await writeWithRating(db, found.teacherId, at, async (tx) => {
        const rows = await tx
          .update(lessonReview)
          .set({ hiddenAt: sql`coalesce(${lessonReview.hiddenAt}, ${at.toISOString()}::timestamptz)`, hiddenReason: reason })
          .where(eq(lessonReview.id, reviewId))
          .returning();
        if (rows.length === 0) return null;
        if (audit) await audit(tx, rows[0]!);
        return true;
      });
      return this.one(reviewId);
    },

    /** A teacher's imported reviews in their order, hidden ones too (the console). null: no such teacher. */
    async importedOf(teacherId: string): Promise<ImportedReview[] | null> {
      const [t] = await db.orm.select({ first: teacher.name, last: teacher.surname }).from(teacher).where(eq(teacher.id, teacherId));
      if (!t) return null;
      const rows = await db.orm.select().from(review).where(eq(review.teacherId, teacherId)).orderBy(review.position).limit(1000);
      return rows.map((r) => toImportedReview(r, `${t.first} ${t.last}`));
    },

    /**
     * The school hides an imported review with a reason (decision 120): one transaction through
     * the write path, so the rating, the count, the card and the page follow like a lesson
     * review's hide. null: no such review.
     */
    async hideImported(reviewId: number, reason: string, audit?: (tx: Db, row: ImportedRow) => Promise<void>): Promise<ImportedReview | null> {
      const at = new Date(now());
      const [found] = await db.orm.select({ teacherId: review.teacherId }).from(review).where(eq(review.id, reviewId));
      if (!found) return null;
      await writeWithRating(db, found.teacherId, at, async (tx) => {
        const rows = await tx
          .update(review)
          .set({ hiddenAt: sql`coalesce(${review.hiddenAt}, ${at.toISOString()}::timestamptz)`, hiddenReason: reason })
          .where(eq(review.id, reviewId))
          .returning();
        if (rows.length === 0) return null;
        if (audit) await audit(tx, rows[0]!);
        return true;
      });
      const [row] = await db.orm
        .select({ review, first: teacher.name, last: teacher.surname })
        .from(review)
        .innerJoin(teacher, eq(teacher.id, review.teacherId))
        .where(eq(review.id, reviewId));
      return row ? toImportedReview(row.review, `${row.first} ${row.last}`) : null;
    },

    async one(reviewId: string): Promise<LessonReview | null> {
      const [row] = await db.orm
        .select({ review: lessonReview, first: teacher.name, last: teacher.surname })
        .from(lessonReview)
        .innerJoin(teacher, eq(teacher.id, lessonReview.teacherId))
        .where(eq(lessonReview.id, reviewId));
      return row ? toLessonReview(row.review, `${row.first} ${row.last}`) : null;
    },

    /**
     * One page of a teacher's visible reviews — lesson reviews and imported ones — newest
     * first (lesson reviews by date, then the imported in their order) or lowest rating first,
     * as the API's JSON text (teacherReviewsPageSchema's shape and order). The rating and total
     * are the teacher's stored figures. One statement, prepared once per connection, whose
     * page of reviews the database writes as JSON (PUBLIC_PAGE_STATEMENTS). null: no such
     * (visible) teacher.
     */
    async publicPageJson(teacherId: string, sort: ReviewSort, page: number): Promise<string | null> {
      const [t] = await db.statement<{ rating: number | string; total: number | string; items: string }>(PUBLIC_PAGE_STATEMENTS[sort], [
        teacherId,
        (page - 1) * REVIEWS_PAGE_SIZE,
      ]);
      if (!t) return null;
      const total = Number(t.total);
      const pages = Math.max(1, Math.ceil(total / REVIEWS_PAGE_SIZE));
      // (the fields in teacherReviewsPageSchema's order; the numbers as JSON.stringify writes them)
      return `{"teacherId":${JSON.stringify(teacherId)},"rating":${JSON.stringify(Number(t.rating))},"total":${total},"sort":${JSON.stringify(sort)},"page":${page},"pages":${pages},"items":${t.items}}`;
    },
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;

/** Notes on the booking (in the transaction that queued it) which outbox row is its review e-mail, so a cancel or a no-show takes it back. */
export async function noteReviewMail(tx: Db, bookingId: string, mailId: string): Promise<void> {
  await tx.update(booking).set({ reviewMailId: mailId }).where(eq(booking.id, bookingId));
}

/** Takes back the booking's review e-mail if it has not gone yet (a cancel, a no-show, a review written first). */
export async function takeBackReviewMail(tx: Db, bookingId: string): Promise<void> {
  await tx.execute(
    sql`delete from ${mailOutbox} m using ${booking} b
        where b.id = ${bookingId} and m.id = b.review_mail_id and m.written_at is null and m.failed_at is null`,
  );
}
