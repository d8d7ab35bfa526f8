import { z } from 'zod';
import { lessonMessages, validationMessages as m } from './messages.js';
import { emailSchema } from './auth.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './rules.js';
import { teacherIdSchema } from './teachers.js';

export const BOOKING_REASONS = [
  'Career and business',
  'Lesson for kids',
  'Living abroad',
  'Exams and coursework',
  'Culture, travel or hobby',
] as const;
export const bookingReasonSchema = z.enum(BOOKING_REASONS, { error: m.reasonRequired });
export type BookingReason = z.infer<typeof bookingReasonSchema>;

/** 7 to 15 digits, optional leading +, spaces, dashes and brackets allowed. */
export const PHONE_PATTERN = /^\+?[\d\s\-()]+$/;

const noControl = { error: CONTROL_CHARACTER_MESSAGE, abort: true } as const;

export const phoneSchema = z
  .string({ error: m.phoneRequired })
  .max(120, { error: m.phoneInvalid, abort: true })
  .trim()
  .min(1, m.phoneRequired)
  .max(30, { error: m.phoneInvalid, abort: true })
  .refine((v) => !hasControlCharacter(v), noControl)
  .refine((v) => {
    if (!PHONE_PATTERN.test(v)) return false;
    const digits = v.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, m.phoneInvalid);

export const NAME_WITH_ADDRESS = 'Full name cannot contain a web or e-mail address';

/**
 * Whether a name holds something a mail client would make a link of by itself: a scheme
 * (`x://`), an `@`, or `www.` (any of Unicode's full stops). A dotted host alone (`evil.com`)
 * is not refused: too many real names are written that way (`J.Smith`, `St.John`,
 * `Ж.Иванов`, `Dr.med. Hans Müller`), and the mails break every dot of a name anyway
 * (plainName in the server's booking-mail.ts). Called on at most 100 characters (the cap
 * comes first).
 */
export const looksLikeAddress = (value: string): boolean => /:\/\/|@|\bwww[.\u3002\uff0e\uff61]/iu.test(value);

export const fullNameSchema = z
  .string({ error: m.fullNameRequired })
  .max(400, { error: 'Full name must be at most 100 characters', abort: true })
  .trim()
  .min(1, m.fullNameRequired)
  .max(100, { error: 'Full name must be at most 100 characters', abort: true })
  .refine((v) => !hasControlCharacter(v), noControl)
  .refine((v) => !looksLikeAddress(v), NAME_WITH_ADDRESS);

/** The booking form's fields (the teacher comes from the card). */
export const bookingFormSchema = z.object({
  reason: bookingReasonSchema,
  fullName: fullNameSchema,
  email: emailSchema,
  phone: phoneSchema,
});
export type BookingFormInput = z.infer<typeof bookingFormSchema>;

// ---------------------------------------------------------------- lesson times
// (their texts, `lessonMessages`, are in messages.ts: zod-free)

/** 409 CANCEL_TOO_LATE: the school's cut-off (decision 117; 12 hours unless the school set another). */
export const cancelTooLateMessage = (hours: number) =>
  hours === 12 ? lessonMessages.cancelTooLate : `A lesson can be cancelled only up to ${hours} hour${hours === 1 ? '' : 's'} before it starts.`;

/** 429 on POST /api/bookings (the wait is also in Retry-After, in seconds). */
export const tooManyBookingsMessage = (retryAfterSeconds: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many bookings in the last hour. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
};

/** A trial lesson lasts 60 minutes and starts on the hour in the teacher's time zone. */
export const LESSON_MINUTES = 60;
/** Bookable from 12 hours ahead … */
export const BOOK_MIN_HOURS_AHEAD = 12;
/** … up to 14 days ahead. */
export const BOOK_MAX_DAYS_AHEAD = 14;
/** A learner may cancel up to 12 hours before the lesson starts. */
export const CANCEL_MIN_HOURS_AHEAD = 12;

/** An instant as ISO 8601 with an offset (the API answers in UTC, `…Z`). */
export const instantSchema = z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time' });

/** GET /api/teachers/:id/slots query: the window (default: the whole bookable window). */
export const slotsQuerySchema = z
  .object({ from: instantSchema.optional(), to: instantSchema.optional() })
  .strict();
export type SlotsQuery = z.infer<typeof slotsQuerySchema>;

/** GET /api/teachers/:id/slots → the free lesson starts (UTC, ascending). */
export const slotsResponseSchema = z.object({
  teacherId: z.string(),
  /** the teacher's IANA time zone (their weekly hours are in it) */
  timeZone: z.string(),
  slots: z.array(z.string()),
});
export type SlotsResponse = z.infer<typeof slotsResponseSchema>;

/** POST /api/bookings body: the form, the teacher, the lesson's start and its language. */
export const bookingRequestSchema = bookingFormSchema
  .extend({
    teacherId: teacherIdSchema,
    start: z.iso.datetime({ offset: true, error: lessonMessages.slotRequired }),
    /** one of the teacher's languages (default: the teacher's first) */
    language: z.string().min(1).max(60).optional(),
    /** the learner's IANA zone, for the times in their e-mail (default UTC) */
    timeZone: z.string().min(1).max(64).optional(),
  })
  .strict();
export type BookingRequest = z.infer<typeof bookingRequestSchema>;

/**
 * The learner's view of a booking. pending: a visitor's booking waiting for its e-mail link (until
 * confirmBy); requested: waiting for the teacher's answer (until answerBy, decision 117);
 * declined: the teacher said no; expired: not confirmed by e-mail in time (cancelledBy null), or
 * not answered by the teacher in time (cancelledBy 'expired').
 */
export const LESSON_STATUSES = ['upcoming', 'past', 'cancelled', 'unscheduled', 'pending', 'expired', 'requested', 'declined'] as const;
export type LessonStatus = (typeof LESSON_STATUSES)[number];

/**
 * Where a booking stands (the server's lessonState, modules/booking/lesson-state.ts; the
 * teacher's side, decision 117): requested → confirmed | declined | expired; confirmed → past |
 * cancelled. pending: a visitor's hold still waiting for its e-mail link (never shown to the
 * teacher: their lists leave holds out).
 */
export const LESSON_STATES = ['requested', 'confirmed', 'past', 'cancelled', 'declined', 'expired', 'pending'] as const;
export const lessonStatusSchema = z.enum(LESSON_STATES);
export type LessonState = z.infer<typeof lessonStatusSchema>;

/** Who ended a booking: the learner, the teacher or the school cancelled it; the teacher declined the request; nobody answered it. */
export const CANCELLED_BY = ['learner', 'teacher', 'school', 'declined', 'expired'] as const;
export const cancelledBySchema = z.enum(CANCELLED_BY);
export type CancelledBy = z.infer<typeof cancelledBySchema>;

/** How each teacher takes bookings: confirmed at once, or each one a request they answer (decision 117). */
export const BOOKING_MODES = ['instant', 'request'] as const;
export const bookingModeSchema = z.enum(BOOKING_MODES, { error: "Choose 'instant' or 'request'" });
export type BookingMode = z.infer<typeof bookingModeSchema>;

/** The school's cancellation cut-off (hours before the start) when none is set, and its bounds. */
export const DEFAULT_CANCEL_CUTOFF_HOURS = 12;
export const CANCEL_CUTOFF_HOURS_MAX = 168;
export const cancelCutoffHoursSchema = z
  .number({ error: 'A whole number of hours' })
  .int('A whole number of hours')
  .min(0, 'At least 0')
  .max(CANCEL_CUTOFF_HOURS_MAX, `At most ${CANCEL_CUTOFF_HOURS_MAX} hours`);

/** A reason told to the learner (a teacher's cancel or decline): one line, capped. */
export const CANCEL_REASON_MAX = 500;
const reasonText = (required: boolean) =>
  z
    .string({ error: 'Say why in a few words' })
    .max(CANCEL_REASON_MAX * 4, { error: `At most ${CANCEL_REASON_MAX} characters`, abort: true })
    .trim()
    .min(required ? 1 : 0, 'Say why in a few words')
    .max(CANCEL_REASON_MAX, { error: `At most ${CANCEL_REASON_MAX} characters`, abort: true })
    .refine((v) => !hasControlCharacter(v), noControl);

/** POST /api/teach/lessons/:id/decline body (the reason is optional). */
export const declineLessonInputSchema = z.object({ reason: reasonText(false).optional() }).strict();
export type DeclineLessonInput = z.infer<typeof declineLessonInputSchema>;

/** POST /api/teach/lessons/:id/cancel body (the reason is required). */
export const teacherCancelInputSchema = z.object({ reason: reasonText(true) }).strict();
export type TeacherCancelInput = z.infer<typeof teacherCancelInputSchema>;

/** One booked trial lesson as its owner sees it. */
export const lessonSchema = z.object({
  id: z.string(),
  teacher: z.object({
    id: z.string(),
    name: z.string(),
    surname: z.string(),
    avatarUrl: z.string().nullable(),
    timeZone: z.string(),
  }),
  /** null for bookings made before lesson times existed */
  language: z.string().nullable(),
  /** UTC; null: "time to be agreed" (bookings made before lesson times existed) */
  start: z.string().nullable(),
  end: z.string().nullable(),
  status: z.enum(LESSON_STATUSES),
  /** true while it may still be cancelled (upcoming and more than 12 h ahead, or unscheduled) */
  cancellable: z.boolean(),
  reason: z.string(),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  /** UTC; while pending: the time the e-mail link must be used by, else null */
  confirmBy: z.string().nullable(),
  /** who did not come, as marked within 48 h of the end (decision 112): the console's bookings show it */
  noShow: z.enum(['learner', 'teacher']).nullable().optional(),
  /** UTC; while requested: the time the teacher must answer by (decision 117), else null */
  answerBy: z.string().nullable().optional(),
  /** who ended it (with cancelledAt, or for an expired request) */
  cancelledBy: cancelledBySchema.nullable().optional(),
  /** the teacher's or the school's reason, told to the learner */
  cancelReason: z.string().nullable().optional(),
  /** the school's cut-off: lessons may be cancelled up to this many hours before they start (the server always says) */
  cancelCutoffHours: z.number().int().optional(),
});
export type Lesson = z.infer<typeof lessonSchema>;

/**
 * One booking as its teacher sees it (POST /api/teach/lessons/:id/accept|decline|cancel answer
 * it; the teacher's lists use the same shape). Times are UTC; the teacher's zone is theirs.
 */
export const teachLessonSchema = z.object({
  id: z.string(),
  state: lessonStatusSchema,
  /** UTC; null for bookings made before lesson times existed */
  start: z.string().nullable(),
  end: z.string().nullable(),
  learner: z.object({ fullName: z.string() }),
  language: z.string().nullable(),
  reason: z.string(),
  createdAt: z.string(),
  /** while requested: the answer's deadline */
  answerBy: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelledBy: cancelledBySchema.nullable(),
  cancelReason: z.string().nullable(),
  /** confirmed and before the school's cut-off: the teacher may cancel it */
  cancellable: z.boolean(),
});
export type TeachLesson = z.infer<typeof teachLessonSchema>;

/** GET /api/bookings → the signed-in learner's lessons (upcoming soonest first, then the rest newest first). */
export const lessonListSchema = z.object({ items: z.array(lessonSchema) });
export type LessonList = z.infer<typeof lessonListSchema>;

/** POST /api/bookings → 201. */
export const bookingCreatedSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lesson: lessonSchema,
  /**
   * the private link's token (/bookings/:token); shown once, stored only hashed. null when the
   * booking is pending (lesson.status): the link then reaches the learner only by e-mail.
   */
  token: z.string().nullable(),
});
export type BookingCreated = z.infer<typeof bookingCreatedSchema>;

/** The private link's token: 32 random bytes, base64url (256 bits). */
export const BOOKING_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const bookingTokenSchema = z.string().max(43).regex(BOOKING_TOKEN_PATTERN, 'Invalid booking link');
