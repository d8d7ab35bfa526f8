import { z } from 'zod';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './rules.js';
import { REVIEW_COMMENT_MAX, REVIEW_HIDE_REASON_MAX, REVIEW_REPLY_MAX, REVIEW_SORTS, reviewMessages } from './review-texts.js';

export * from './review-texts.js';

/*
 * Reviews of lessons taken on LearnLingo (issue 26, decision 112): the learner's rating and
 * comment, the teacher's one public answer, the school's hiding with a reason, and the
 * teacher page's server-paged list (lesson reviews and imported ones together).
 */

/** Plain text written by a person: capped before anything else, line breaks and tabs allowed. */
const plainText = (max: number, tooLong: string) =>
  z
    .string()
    .max(max * 2, { error: tooLong, abort: true })
    .refine((v) => !hasControlCharacter(v.replace(/[\t\n\r]/g, ' ')), { error: CONTROL_CHARACTER_MESSAGE, abort: true })
    .transform((v) => v.replace(/\r\n?/g, '\n').trim())
    .refine((v) => v.length <= max, { error: tooLong, abort: true });

export const reviewRatingSchema = z
  .number({ error: reviewMessages.ratingRequired })
  .int({ error: reviewMessages.ratingRequired })
  .min(1, reviewMessages.ratingRequired)
  .max(5, reviewMessages.ratingRequired);

/** POST /api/bookings/:id/review (and the private link's): a new review, or the change of one. */
export const reviewInputSchema = z.object({
  rating: reviewRatingSchema,
  comment: plainText(REVIEW_COMMENT_MAX, reviewMessages.commentTooLong).optional().default(''),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

/** POST /api/teach/reviews/:id/reply */
export const reviewReplyInputSchema = z.object({
  reply: plainText(REVIEW_REPLY_MAX, reviewMessages.replyTooLong).refine((v) => v.length > 0, reviewMessages.replyRequired),
});

/** POST /api/staff/reviews/:id/hide */
export const reviewHideInputSchema = z.object({
  reason: plainText(REVIEW_HIDE_REASON_MAX, reviewMessages.reasonTooLong).refine((v) => v.length > 0, reviewMessages.reasonRequired),
});

export const reviewIdSchema = z.uuid({ error: 'Invalid review id' });

/** One review of a lesson as its learner, its teacher and the school see it (hidden ones too). */
export const lessonReviewSchema = z.object({
  id: z.string(),
  bookingId: z.string(),
  teacherId: z.string(),
  teacherName: z.string(),
  /** the learner's first name */
  reviewerName: z.string(),
  language: z.string().nullable(),
  /** the lesson's start (UTC) */
  lessonStart: z.string(),
  rating: z.number().int(),
  comment: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** until then the learner may change it */
  editableUntil: z.string(),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  /** hidden by the school: when and why (the learner and the teacher see it) */
  hidden: z.object({ at: z.string(), reason: z.string() }).nullable(),
});
export type LessonReview = z.infer<typeof lessonReviewSchema>;

export const REVIEW_STATES = ['upcoming', 'open', 'reviewed', 'no-show', 'not-reviewable'] as const;

/** What the learner may do about one lesson's review (My lessons, the private link). */
export const lessonReviewStateSchema = z.object({
  bookingId: z.string(),
  /** upcoming: not ended yet; open: may be rated; reviewed: has a review; no-show: either side missed it */
  state: z.enum(REVIEW_STATES),
  review: lessonReviewSchema.nullable(),
  /** the review may still be changed */
  editable: z.boolean(),
  /** the learner may still report that the teacher did not come */
  canReportTeacherAbsent: z.boolean(),
  teacherAbsent: z.boolean(),
  learnerAbsent: z.boolean(),
});
export type LessonReviewState = z.infer<typeof lessonReviewStateSchema>;

/** GET /api/bookings/reviews → the signed-in learner's past lessons' review states. */
export const lessonReviewStatesSchema = z.object({ items: z.array(lessonReviewStateSchema) });


/** GET /api/teachers/:id/reviews?sort=&page= */
export const teacherReviewsQuerySchema = z.object({
  sort: z.enum(REVIEW_SORTS, { error: 'Invalid sort' }).optional().default('newest'),
  page: z.coerce.number({ error: 'Invalid page' }).int({ error: 'Invalid page' }).min(1, 'Invalid page').max(100_000, 'Invalid page').optional().default(1),
});

/** A review as the public sees it: from a lesson here (with its date and language), or imported. */
export const publicReviewSchema = z.object({
  kind: z.enum(['lesson', 'imported']),
  reviewer_name: z.string(),
  reviewer_rating: z.number(),
  comment: z.string(),
  /** the lesson's date (UTC ISO), lesson reviews only */
  date: z.string().nullable(),
  language: z.string().nullable(),
  reply: z.string().nullable(),
});
export type PublicReview = z.infer<typeof publicReviewSchema>;

export const teacherReviewsPageSchema = z.object({
  teacherId: z.string(),
  /** the teacher's rating and count of visible reviews, as stored (never recomputed per request) */
  rating: z.number(),
  total: z.number().int(),
  sort: z.enum(REVIEW_SORTS),
  page: z.number().int(),
  pages: z.number().int(),
  items: z.array(publicReviewSchema),
});
export type TeacherReviewsPage = z.infer<typeof teacherReviewsPageSchema>;

/** GET /api/teach/reviews and GET /api/staff/reviews */
export const lessonReviewListSchema = z.object({ items: z.array(lessonReviewSchema) });

/** An imported review's id (the `review` table's): a positive integer. */
export const importedReviewIdSchema = z.coerce
  .number({ error: 'Invalid review id' })
  .int({ error: 'Invalid review id' })
  .min(1, 'Invalid review id')
  .max(2_147_483_647, 'Invalid review id');

/** An imported review as the school sees it (the console: hidden ones too, with why). */
export const importedReviewSchema = z.object({
  id: z.number().int(),
  teacherId: z.string(),
  teacherName: z.string(),
  reviewerName: z.string(),
  rating: z.number(),
  comment: z.string(),
  hidden: z.object({ at: z.string(), reason: z.string() }).nullable(),
});
export type ImportedReview = z.infer<typeof importedReviewSchema>;

/** GET /api/staff/teachers/:id/imported-reviews */
export const importedReviewListSchema = z.object({ items: z.array(importedReviewSchema) });
