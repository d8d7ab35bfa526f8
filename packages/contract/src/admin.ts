import { z } from 'zod';
import { AVATAR_URL_MAX } from './avatars.js';
import { cancelCutoffHoursSchema, LESSON_STATUSES } from './booking.js';
import { countrySchema, languageSchema, levelSchema, teacherIdSchema } from './teachers.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter, PRICE_MAX } from './rules.js';

/*
 * The school's console (issue 24): teachers, bookings and the school's settings. Every
 * outside string is capped before any pattern; the server validates with these schemas and
 * answers 400 naming the field, the console's forms validate with the same ones.
 */

/** A teacher's place in the catalogue (decision 111): a draft was never public; hidden leaves the catalogue. */
export const TEACHER_STATUSES = ['draft', 'published', 'hidden'] as const;
export type TeacherStatus = (typeof TEACHER_STATUSES)[number];

export const ADMIN_PAGE_SIZE = 20;
/** A whole number from a query string: digits only, capped before the pattern. */
const whole = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string()
      .max(5, { error: 'Expected a whole number', abort: true })
      .regex(/^[1-9][0-9]*$/, 'Expected a whole number')
      .transform(Number)
      .pipe(z.number().int().max(max, `At most ${max}`)),
  );
const page = whole(10_000).default(1);
const pageSize = whole(100).default(ADMIN_PAGE_SIZE);

const line = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .refine((v) => !hasControlCharacter(v), { error: CONTROL_CHARACTER_MESSAGE, abort: true });
const paragraph = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .refine((v) => !hasControlCharacter(v.replace(/[\t\n\r]/g, ' ')), { error: CONTROL_CHARACTER_MESSAGE, abort: true });

/** Why (a status change to hidden, a cancelled lesson): required, kept, shown in the activity log. */
export const reasonSchema = line(500).trim().min(1, 'Say why');

// ---------------------------------------------------------------- weekly hours and zones

export const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
/** 7 lists, Monday first, of [fromHour, toHour) pairs (whole hours, 0–24). */
export type WeeklyHoursValue = number[][][];

const DAY_RANGE = /^([A-Za-z]{3})(?:-([A-Za-z]{3}))? +(\S+)$/;
const HOUR_RANGE = /^(\d{2}):00-(\d{2}):00$/;

/**
 * Parses weekly hours written as `Mon-Fri 09:00-18:00; Sat 10:00-13:00,14:00-16:00`:
 * groups separated by `;`, each a weekday or weekday range and comma-separated whole-hour
 * ranges (SCHOOL_HOURS's syntax). Returns an Error that says what is wrong.
 */
export function parseWeeklyHours(text: string): WeeklyHoursValue | Error {
  if (text.length > 300) return new Error('at most 300 characters');
  const hours: WeeklyHoursValue = WEEKDAY_NAMES.map(() => []);
  const dayIndex = (name: string) => WEEKDAY_NAMES.findIndex((d) => d.toLowerCase() === name.toLowerCase());
  for (const group of text.split(';').map((g) => g.trim()).filter(Boolean)) {
    if (group.length > 100) return new Error(`"${group.slice(0, 20)}…": too long`);
    const match = DAY_RANGE.exec(group);
    if (!match) return new Error(`"${group}": expected e.g. "Mon-Fri 09:00-18:00"`);
    const firstDay = dayIndex(match[1]!);
    const lastDay = match[2] === undefined ? firstDay : dayIndex(match[2]);
    if (firstDay < 0 || lastDay < 0 || lastDay < firstDay) return new Error(`"${group}": weekdays are Mon…Sun, in order`);
    for (const range of match[3]!.split(',')) {
      const r = HOUR_RANGE.exec(range);
      const fromHour = Number(r?.[1]);
      const toHour = Number(r?.[2]);
      if (!r || fromHour >= toHour || toHour > 24) return new Error(`"${range}": expected whole hours such as 09:00-18:00`);
      for (let day = firstDay; day <= lastDay; day += 1) hours[day]!.push([fromHour, toHour]);
    }
  }
  if (hours.every((day) => day.length === 0)) return new Error('no hours given');
  return hours;
}

const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

/** Weekly hours in the syntax parseWeeklyHours reads (consecutive days with the same hours joined). */
export function formatWeeklyHours(hours: WeeklyHoursValue): string {
  const ranges = hours.map((day) => day.map(([from, to]) => `${hh(from!)}-${hh(to!)}`).join(','));
  const groups: string[] = [];
  for (let day = 0; day < 7; day += 1) {
    if (!ranges[day]) continue;
    let last = day;
    while (last + 1 < 7 && ranges[last + 1] === ranges[day]) last += 1;
    groups.push(`${WEEKDAY_NAMES[day]}${last > day ? `-${WEEKDAY_NAMES[last]}` : ''} ${ranges[day]}`);
    day = last;
  }
  return groups.join('; ');
}

/** true for a time-zone name the runtime knows (IANA names such as Europe/Kyiv, and UTC) */
export function knownTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .trim()
  .max(64, { abort: true })
  .refine(knownTimeZone, 'Unknown time zone (use an IANA name such as Europe/Kyiv)');

/** Weekly hours as the console's text field holds them, parsed. */
export const weeklyHoursTextSchema = z
  .string()
  .max(300, { abort: true })
  .transform((text, ctx) => {
    const hours = parseWeeklyHours(text);
    if (hours instanceof Error) {
      ctx.addIssue({ code: 'custom', message: hours.message });
      return z.NEVER;
    }
    return hours;
  });

// ---------------------------------------------------------------- teachers

/** A photo uploaded in the console (`/photos/<hash>-<width>.webp`) or an https address. */
export const PHOTO_PATH_PATTERN = /^\/photos\/[0-9a-f]{32}-[0-9]{2,4}\.webp$/;
export const photoUrlSchema = z
  .string()
  .max(AVATAR_URL_MAX, { abort: true })
  .refine((v) => PHOTO_PATH_PATTERN.test(v) || /^https:\/\/[^\s]+$/i.test(v), 'Upload a photo or give an https address');

export const adminTeacherQuerySchema = z.object({
  q: line(100).trim().optional(),
  status: z.enum(TEACHER_STATUSES).optional(),
  page,
  pageSize,
});
export type AdminTeacherQuery = z.input<typeof adminTeacherQuerySchema>;

export const adminTeacherRowSchema = z.object({
  id: teacherIdSchema,
  name: z.string(),
  surname: z.string(),
  languages: z.array(z.string()),
  price_per_hour: z.number(),
  rating: z.number(),
  status: z.enum(TEACHER_STATUSES),
  /** lessons booked through LearnLingo that are not cancelled */
  lessonsBooked: z.number().int(),
});
export type AdminTeacherRow = z.infer<typeof adminTeacherRowSchema>;

export const adminTeacherPageSchema = z.object({
  items: z.array(adminTeacherRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminTeacherPage = z.infer<typeof adminTeacherPageSchema>;

/** Every field a card shows, as the console edits it. */
export const adminTeacherInputSchema = z.object({
  name: line(100).trim().min(1, 'Required'),
  surname: line(100).trim().min(1, 'Required'),
  languages: z.array(languageSchema).min(1, 'At least one language').max(20),
  levels: z.array(levelSchema).min(1, 'At least one level').max(6),
  price_per_hour: z.number({ error: 'A price in dollars' }).positive('More than 0').max(PRICE_MAX),
  lesson_info: paragraph(5000),
  conditions: z.array(paragraph(1000).trim().min(1)).max(50),
  experience: paragraph(10000),
  avatar_url: photoUrlSchema.nullable(),
  country: countrySchema.nullable(),
  /** null: the school's time zone and hours */
  timeZone: timeZoneSchema.nullable(),
  weeklyHours: weeklyHoursTextSchema.nullable(),
});
export type AdminTeacherInput = z.input<typeof adminTeacherInputSchema>;

export const adminTeacherCreateSchema = adminTeacherInputSchema.extend({
  /** a new teacher is a draft unless the admin publishes at once */
  status: z.enum(['draft', 'published']).default('draft'),
});
export type AdminTeacherCreate = z.input<typeof adminTeacherCreateSchema>;

/** An edit: any of the fields. */
export const adminTeacherPatchSchema = adminTeacherInputSchema.partial();
export type AdminTeacherPatch = z.input<typeof adminTeacherPatchSchema>;

export const adminTeacherSchema = z.object({
  id: teacherIdSchema,
  name: z.string(),
  surname: z.string(),
  languages: z.array(z.string()),
  levels: z.array(z.string()),
  price_per_hour: z.number(),
  rating: z.number(),
  lessons_done: z.number().int(),
  lesson_info: z.string(),
  conditions: z.array(z.string()),
  experience: z.string(),
  avatar_url: z.string().nullable(),
  country: z.string().nullable(),
  timeZone: z.string().nullable(),
  /** in parseWeeklyHours's syntax; null: the school's */
  weeklyHours: z.string().nullable(),
  status: z.enum(TEACHER_STATUSES),
  statusReason: z.string().nullable(),
  publishedAt: z.string().nullable(),
  lessonsBooked: z.number().int(),
});
export type AdminTeacher = z.infer<typeof adminTeacherSchema>;

export const teacherStatusChangeSchema = z
  .object({
    status: z.enum(TEACHER_STATUSES),
    reason: reasonSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if (value.status === 'hidden' && !value.reason) ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Say why the teacher is hidden' });
  });
export type TeacherStatusChange = z.input<typeof teacherStatusChangeSchema>;

/** What the photo upload answers: the card's address and the larger size's. */
export const photoUploadedSchema = z.object({
  avatar_url: z.string(),
  large_url: z.string(),
});
export type PhotoUploaded = z.infer<typeof photoUploadedSchema>;
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;

// ---------------------------------------------------------------- bookings

const day = z
  .string()
  .max(10, { abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date such as 2026-12-24')
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'Not a calendar date');
export const calendarDateSchema = day;

export const adminBookingQuerySchema = z.object({
  teacherId: teacherIdSchema.optional(),
  /** lessons starting on or after this day (UTC) */
  from: day.optional(),
  /** lessons starting on or before this day (UTC) */
  to: day.optional(),
  status: z.enum(['upcoming', 'past', 'cancelled', 'pending']).optional(),
  page,
  pageSize,
});
export type AdminBookingQuery = z.input<typeof adminBookingQuerySchema>;

export const adminBookingSchema = z.object({
  id: z.string(),
  teacher: z.object({ id: z.string(), name: z.string(), surname: z.string() }),
  learner: z.object({ fullName: z.string(), email: z.string() }),
  language: z.string().nullable(),
  start: z.string().nullable(),
  status: z.enum(LESSON_STATUSES),
  createdAt: z.string(),
  cancelledAt: z.string().nullable(),
  /** who did not come, as marked within 48 h of the end (decision 112) */
  noShow: z.enum(['learner', 'teacher']).nullable().optional(),
});
export type AdminBooking = z.infer<typeof adminBookingSchema>;

export const adminBookingPageSchema = z.object({
  items: z.array(adminBookingSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminBookingPage = z.infer<typeof adminBookingPageSchema>;

export const adminCancelSchema = z.object({ reason: reasonSchema });
export type AdminCancel = z.input<typeof adminCancelSchema>;

// ---------------------------------------------------------------- the school

export const closureSchema = z.object({
  id: z.string(),
  startsOn: z.string(),
  endsOn: z.string(),
  reason: z.string(),
});
export type Closure = z.infer<typeof closureSchema>;

export const closureInputSchema = z
  .object({ startsOn: day, endsOn: day, reason: line(200).trim().default('') })
  .superRefine((value, ctx) => {
    if (value.endsOn < value.startsOn) ctx.addIssue({ code: 'custom', path: ['endsOn'], message: 'Ends before it starts' });
  });
export type ClosureInput = z.input<typeof closureInputSchema>;

export const schoolSettingsSchema = z.object({
  timeZone: z.string(),
  /** in parseWeeklyHours's syntax */
  weeklyHours: z.string(),
  contactEmail: z.string().nullable(),
  /** learners and teachers may cancel a lesson up to this many hours before it starts (decision 117) */
  cancelCutoffHours: z.number().int(),
  closures: z.array(closureSchema),
});
export type SchoolSettings = z.infer<typeof schoolSettingsSchema>;

export const schoolSettingsInputSchema = z.object({
  timeZone: timeZoneSchema,
  weeklyHours: weeklyHoursTextSchema,
  contactEmail: z.string().trim().max(254, { abort: true }).pipe(z.email('An e-mail address')).nullable(),
  /** left out: unchanged (default 12) */
  cancelCutoffHours: cancelCutoffHoursSchema.optional(),
});
export type SchoolSettingsInput = z.input<typeof schoolSettingsInputSchema>;
