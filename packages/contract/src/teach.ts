import { z } from 'zod';
import { adminTeacherInputSchema, adminTeacherSchema, calendarDateSchema, timeZoneSchema, WEEKDAY_NAMES, type AdminTeacher } from './admin.js';
import { bookingModeSchema } from './booking.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './rules.js';

/*
 * A teacher's own hours (issue 25, decision 116): weekly hours in their IANA zone (several
 * ranges a day), time off as date ranges, extra hours on a date, minimum notice and how far
 * ahead learners may book. The server validates with these schemas and answers 400 naming
 * the field; every outside string is capped before any pattern.
 */

export const NOTICE_HOURS_MAX = 336;
export const HORIZON_DAYS_MAX = 365;
/** per day of the week */
export const RANGES_PER_DAY_MAX = 12;
/** entries a teacher may have that are not over yet */
export const TIME_OFF_MAX = 100;
export const EXTRA_HOURS_MAX = 200;
/** one time-off entry spans at most this many days */
export const TIME_OFF_DAYS_MAX = 366;
/** the days a preview shows */
export const PREVIEW_DAYS = 7;

/** A whole hour of the day as `HH:00`, 00:00…24:00 (24:00 only ends a range). */
export const wholeHourSchema = z
  .string()
  .max(5, { error: 'A whole hour such as 09:00', abort: true })
  .regex(/^(?:[01]\d|2[0-4]):00$/, 'A whole hour such as 09:00')
  .transform((v) => Number(v.slice(0, 2)));

const hourRangeSchema = z
  .object({ from: wholeHourSchema, to: wholeHourSchema })
  .superRefine((range, ctx) => {
    if (range.from >= 24) ctx.addIssue({ code: 'custom', path: ['from'], message: 'Starts by 23:00' });
    else if (range.to <= range.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Ends after it starts' });
  });

const dayRangesSchema = z
  .array(hourRangeSchema)
  .max(RANGES_PER_DAY_MAX, `At most ${RANGES_PER_DAY_MAX} ranges a day`)
  .superRefine((ranges, ctx) => {
    const sorted = ranges.map((r, i) => ({ ...r, i })).sort((a, b) => a.from - b.from);
    for (let k = 1; k < sorted.length; k += 1) {
      if (sorted[k]!.from < sorted[k - 1]!.to) ctx.addIssue({ code: 'custom', path: [sorted[k]!.i, 'from'], message: 'Overlaps another range that day' });
    }
  });

/** 7 lists, Monday first, of `{ from: 'HH:00', to: 'HH:00' }` ranges in the teacher's zone. */
export const weeklyHoursInputSchema = z.array(dayRangesSchema).length(7, 'Seven days, Monday first');

/** A range as the API answers it. */
export const hourRangeViewSchema = z.object({ from: z.string(), to: z.string() });
export type HourRangeView = z.infer<typeof hourRangeViewSchema>;

export const noticeHoursSchema = z
  .number({ error: 'A whole number of hours' })
  .int('A whole number of hours')
  .min(0, 'At least 0')
  .max(NOTICE_HOURS_MAX, `At most ${NOTICE_HOURS_MAX} hours`);
export const horizonDaysSchema = z
  .number({ error: 'A whole number of days' })
  .int('A whole number of days')
  .min(1, 'At least 1 day')
  .max(HORIZON_DAYS_MAX, `At most ${HORIZON_DAYS_MAX} days`);

/** PUT /api/teach/availability */
export const teachAvailabilityInputSchema = z
  .object({
    timeZone: timeZoneSchema,
    weeklyHours: weeklyHoursInputSchema,
    noticeHours: noticeHoursSchema,
    horizonDays: horizonDaysSchema,
    /** instant (default) or request (decision 117); left out: unchanged */
    bookingMode: bookingModeSchema.optional(),
  })
  .strict();
export type TeachAvailabilityInput = z.input<typeof teachAvailabilityInputSchema>;

const line = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTER_MESSAGE, abort: true });

/** POST /api/teach/time-off: days in the teacher's zone, both included. */
export const timeOffInputSchema = z
  .object({ startsOn: calendarDateSchema, endsOn: calendarDateSchema, reason: line(200).trim().default('') })
  .strict()
  .superRefine((value, ctx) => {
    if (value.endsOn < value.startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'Ends before it starts' });
    else if ((Date.parse(value.endsOn) - Date.parse(value.startsOn)) / 86_400_000 + 1 > TIME_OFF_DAYS_MAX) {
      ctx.addIssue({ code: 'custom', path: ['endsOn'], message: `At most ${TIME_OFF_DAYS_MAX} days at once` });
    }
  });
export type TimeOffInput = z.input<typeof timeOffInputSchema>;

export const timeOffSchema = z.object({ id: z.string(), startsOn: z.string(), endsOn: z.string(), reason: z.string() });
export type TimeOff = z.infer<typeof timeOffSchema>;

/** POST /api/teach/extra-hours: a range of whole hours on one date in the teacher's zone. */
export const extraHoursInputSchema = z
  .object({ on: calendarDateSchema, from: wholeHourSchema, to: wholeHourSchema })
  .strict()
  .superRefine((value, ctx) => {
    if (value.from >= 24) ctx.addIssue({ code: 'custom', path: ['from'], message: 'Starts by 23:00' });
    else if (value.to <= value.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Ends after it starts' });
  });
export type ExtraHoursInput = z.input<typeof extraHoursInputSchema>;

export const extraHoursSchema = z.object({ id: z.string(), on: z.string(), from: z.string(), to: z.string() });
export type ExtraHoursEntry = z.infer<typeof extraHoursSchema>;

/** GET (and PUT's answer) /api/teach/availability */
export const teachAvailabilitySchema = z.object({
  teacherId: z.string(),
  timeZone: z.string(),
  weeklyHours: z.array(z.array(hourRangeViewSchema)),
  /** false: the teacher has not set hours; these are the school's */
  ownHours: z.boolean(),
  noticeHours: z.number().int(),
  horizonDays: z.number().int(),
  /** 'instant': bookings are lessons at once; 'request': each waits for the teacher's answer */
  bookingMode: bookingModeSchema,
  /** entries not over yet, soonest first */
  timeOff: z.array(timeOffSchema),
  extraHours: z.array(extraHoursSchema),
});
export type TeachAvailability = z.infer<typeof teachAvailabilitySchema>;

export const teachEntryParamsSchema = z.object({ id: z.uuid({ error: 'Invalid id' }) });

/** GET /api/teach/preview?zone=IANA */
export const teachPreviewQuerySchema = z.object({ zone: timeZoneSchema }).strict();

export const previewSlotSchema = z.object({
  /** the instant (UTC) */
  start: z.string(),
  /** the learner's wall clock in `zone`: YYYY-MM-DD, weekday, HH:MM */
  date: z.string(),
  weekday: z.enum(WEEKDAY_NAMES),
  time: z.string(),
  /** the same start on the teacher's own clock, `Mon 14:00` */
  teacherTime: z.string(),
});
export type PreviewSlot = z.infer<typeof previewSlotSchema>;

export const teachPreviewSchema = z.object({
  zone: z.string(),
  teacherTimeZone: z.string(),
  from: z.string(),
  to: z.string(),
  slots: z.array(previewSlotSchema),
});
export type TeachPreview = z.infer<typeof teachPreviewSchema>;

/** `HH:00` for a whole hour */
export const wholeHourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/**
 * PUT /api/teach/profile: the signed-in teacher's own card, the console's edit (decision 111)
 * without what is not theirs to set here: the status (the school's) and the hours (the Hours
 * tab's, above). Every field, as a form sends them; an unknown one (`status`) is a 400 naming it.
 */
export const teachProfileInputSchema = adminTeacherInputSchema.omit({ timeZone: true, weeklyHours: true }).strict();
export type TeachProfileInput = z.input<typeof teachProfileInputSchema>;
/** GET/PUT /api/teach/profile's answer: the card as the console shows it, with its status and the school's reason. */
export const teachProfileSchema = adminTeacherSchema;
export type TeachProfile = AdminTeacher;
