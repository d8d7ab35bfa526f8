import { z } from 'zod';
import { teachLessonSchema } from './booking.js';
import { CURSOR_MAX } from './rules.js';
import { decimalQuerySchema } from './teachers.js';

/*
 * The teacher's Lessons (issue 25, decision 122): GET /api/teach/lessons?view=requests|upcoming|past,
 * keyset-paged on the server. Every lesson of the signed-in teacher that has a time and is not a
 * visitor's unconfirmed hold (decision 102) is in exactly one view: a request waiting for the
 * teacher's answer is in `requests`; any other lesson is `upcoming` until its end and `past` from
 * then on, whatever became of it (its status says: confirmed, cancelled, declined, expired).
 */

export const TEACH_LESSON_VIEWS = ['requests', 'upcoming', 'past'] as const;
export type TeachLessonView = (typeof TEACH_LESSON_VIEWS)[number];

export const TEACH_LESSONS_LIMIT_MAX = 50;
export const TEACH_LESSONS_LIMIT_DEFAULT = 10;

export const teachLessonsQuerySchema = z
  .object({
    view: z.enum(TEACH_LESSON_VIEWS, { error: `One of ${TEACH_LESSON_VIEWS.join(', ')}` }).default('upcoming'),
    /** the nextCursor of the previous page of the same view */
    cursor: z.string({ error: 'Invalid cursor' }).min(1, 'Invalid cursor').max(CURSOR_MAX, { error: 'Invalid cursor', abort: true }).optional(),
    limit: decimalQuerySchema
      .pipe(z.number().int().min(1, 'At least 1').max(TEACH_LESSONS_LIMIT_MAX, `At most ${TEACH_LESSONS_LIMIT_MAX}`))
      .default(TEACH_LESSONS_LIMIT_DEFAULT),
  })
  .strict();
export type TeachLessonsQuery = z.input<typeof teachLessonsQuerySchema>;

/** An instant as the teacher's clock shows it in their zone. */
export const wallClockSchema = z.object({
  /** YYYY-MM-DD */
  date: z.string(),
  /** Mon … Sun */
  weekday: z.string(),
  /** HH:MM, 24-hour */
  time: z.string(),
  /** the zone's offset from UTC then, as +HH:MM or −HH:MM (tells apart the two 01:30 of an autumn night) */
  offset: z.string(),
});
export type WallClock = z.infer<typeof wallClockSchema>;

/**
 * One lesson of the teacher's lists: the shape the teacher's actions answer (teachLessonSchema,
 * booking.ts) with its times on the teacher's clock, in the page's timeZone.
 */
export const teachLessonItemSchema = teachLessonSchema.extend({
  localStart: wallClockSchema,
  localEnd: wallClockSchema,
  /** while requested: the deadline on the teacher's clock, else null */
  answerByLocal: wallClockSchema.nullable(),
});
export type TeachLessonItem = z.infer<typeof teachLessonItemSchema>;

export const teachLessonsPageSchema = z.object({
  view: z.enum(TEACH_LESSON_VIEWS),
  /** the teacher's IANA zone: every local time of the page is in it */
  timeZone: z.string(),
  /** requests: soonest deadline first; upcoming: soonest first; past: newest first */
  items: z.array(teachLessonItemSchema),
  /** the next page of the same view, or null at its end */
  nextCursor: z.string().nullable(),
});
export type TeachLessonsPage = z.infer<typeof teachLessonsPageSchema>;

/** GET /api/teach/lessons/first-pages: the first page of each view at once (the tab's first render: one request, not three). */
export const teachLessonsFirstPagesQuerySchema = teachLessonsQuerySchema.pick({ limit: true });
export const teachLessonsFirstPagesSchema = z.object({
  requests: teachLessonsPageSchema,
  upcoming: teachLessonsPageSchema,
  past: teachLessonsPageSchema,
});
export type TeachLessonsFirstPages = z.infer<typeof teachLessonsFirstPagesSchema>;
