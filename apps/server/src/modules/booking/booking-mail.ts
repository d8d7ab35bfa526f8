import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { booking, mailOutbox, teacherAccount, user } from '../../db/schema.js';
import { enqueueMail, type MailMessage } from '../../mail/index.js';
import type { BookingRow } from './booking-repository.js';
import { calendarFile } from './ics.js';
import { LESSON_MS, type Schedule } from './schedule.js';

/*
 * The e-mails of a lesson's life (issue 25, decision 118), each written for its reader: the
 * learner's in the zone they chose when booking, the teacher's to their ACCOUNT address in their
 * own zone, and the school's copy (its contact address, optional). Queued in the transaction of
 * the change they announce, so a lesson and its e-mails exist together or not at all. Each
 * carries the lesson's .ics: one UID per lesson, a SEQUENCE that grows with each change sent
 * (booking.ics_sequence), so a calendar moves or removes its one event instead of adding one.
 * Two reminders (learner's, teacher's) wait in the outbox until 24 h before the start.
 */

/** "Tuesday 3 November 2026, 15:00–16:00 (Europe/Berlin)": the lesson (or, range false, one instant) in `timeZone`. */
export function when(start: Date, timeZone: string, range = true): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const end = range ? `–${time.format(new Date(start.getTime() + LESSON_MS))}` : '';
  return `${day.replace(',', '')}, ${time.format(start)}${end} (${timeZone})`;
}

/** "Sunday 25 October, 09:00 (Europe/Berlin)": a request's deadline (a day or less ahead) in `timeZone`. */
export function deadline(at: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${day.replace(',', '')}, ${time} (${timeZone})`;
}

/**
 * The learner's name as mail text. Booking mails are plain text only (no HTML part, so no
 * markup to escape), and clients make links of URL-like text even there: a zero-width space
 * before each `.` (and Unicode's other full stops, which some clients read as one), `@`, `:`
 * and `/` keeps `evil.com`, `www.x`, `a@b.c` or `https://…` from reading as one (no run of
 * host characters holds a dot any more), while the name looks the same. The contract refuses
 * names with a scheme, an `@` or `www.` (looksLikeAddress) but lets dotted names such as
 * `J.Smith` through; this covers them, and names stored before the contract's rule.
 */
export const plainName = (name: string) => name.replace(/[.\u3002\uff0e\uff61@:/]/g, '\u200b$&');

const lessonName = (row: BookingRow) => `${row.language ? `${row.language} ` : ''}trial lesson with ${row.teacher.name} ${row.teacher.surname}`;

/** The lesson's UID in every .ics we send or serve (e-mails, downloads, feeds): one per lesson. */
export const lessonUid = (bookingId: string) => `${bookingId}@learnlingo`;

/**
 * The lesson's .ics: a cancelled lesson's is a CANCEL of the same UID, stamped when it was
 * cancelled. `url`: where the learner manages it (none in the school's copy of a deleted
 * account's cancellation). `sequence`: booking.ics_sequence (0 when first sent).
 */
export function lessonCalendar(
  row: BookingRow & { start: Date },
  url?: string,
  { sequence = 0, tentative = false, cancelled = row.cancelledAt !== null, stamp }: { sequence?: number; tentative?: boolean; cancelled?: boolean; stamp?: Date } = {},
): string {
  const teacherName = `${row.teacher.name} ${row.teacher.surname}`;
  const language = row.language ? `${row.language} ` : '';
  return calendarFile({
    uid: lessonUid(row.id),
    start: row.start,
    end: new Date(row.start.getTime() + LESSON_MS),
    stamp: stamp ?? row.cancelledAt ?? row.createdAt,
    summary: `LearnLingo: ${language}trial lesson with ${teacherName}`,
    description: `Trial ${language}lesson (60 minutes) with ${teacherName}.${url ? ` Manage it: ${url}` : ''}`,
    cancelled,
    tentative,
    sequence,
    ...(url ? { url } : {}),
  });
}

export interface HoldMailContext {
  row: BookingRow;
  /** where the learner confirms it (the private link) */
  confirmUrl: string;
  expiresAt: Date;
  learnerTimeZone: string;
}

/**
 * The one e-mail of a hold (decision 102): to the address typed in the form, whose owner may
 * not have asked for it — so it carries nothing the visitor chose (no name, no reason), only
 * the lesson, the link and how to ignore it. The school hears of the lesson once it is confirmed.
 */
export function holdMail(c: HoldMailContext): MailMessage[] {
  const { row } = c;
  if (!row.start) return [];
  const by = new Intl.DateTimeFormat('en-GB', { timeZone: c.learnerTimeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(c.expiresAt);
  return [
    {
      to: row.email,
      subject: `Confirm your ${lessonName(row)}`,
      text: [
        'Hello,',
        '',
        'this e-mail address was given for a booking on LearnLingo:',
        `Lesson: ${lessonName(row)}`,
        `When: ${when(row.start, c.learnerTimeZone)}`,
        '',
        `To confirm it, open this link by ${by} (${c.learnerTimeZone}) and press "Confirm lesson":`,
        c.confirmUrl,
        '',
        'Until then the time is kept for you; if it is not confirmed by then, it becomes free for others again.',
        'If you did not book it, ignore this e-mail: nothing is booked, and we will not write again about it.',
        '',
        'LearnLingo',
      ].join('\n'),
    },
  ];
}


/** What happened to a lesson, as its e-mails tell it. */
export type LessonEvent =
  /** an instant lesson, booked (or its visitor's hold confirmed): SEQUENCE 0 */
  | { kind: 'booked' }
  /** a request waiting for the teacher until `answerBy` (default: the row's answer_by): a TENTATIVE event, SEQUENCE 0 */
  | { kind: 'requested'; answerBy?: Date }
  /** the teacher accepted the request */
  | { kind: 'accepted' }
  /** the teacher declined the request */
  | { kind: 'declined'; reason?: string | null }
  /** nobody answered the request by its deadline: the server declined it */
  | { kind: 'expired' }
  /** the learner withdrew their request before the teacher answered */
  | { kind: 'withdrawn' }
  | { kind: 'cancelled'; by: 'learner' | 'teacher' | 'school'; reason?: string | null };

/** A reminder is due this long before the start (decision 118). */
export const REMINDER_BEFORE_MS = 24 * 3_600_000;

/** Everything but the row that a lesson's e-mails need (pure: no database). */
export interface LessonMailContext {
  /** where the learner sees (and cancels) it; '' for none */
  manageUrl: string;
  /** where the teacher answers and sees their lessons */
  teachUrl: string;
  learnerTimeZone: string;
  teacherTimeZone: string;
  /** the teacher's account address; null: the teacher has no account (the school's copy is all) */
  teacherEmail: string | null;
  /** the school's contact address for its copy (optional) */
  schoolEmail: string | undefined;
  /** the .ics SEQUENCE of this change */
  sequence: number;
  /** false: no learner's e-mail (their account is being deleted) */
  learner?: boolean;
}

export interface LessonMails {
  learner: MailMessage | null;
  teacher: MailMessage | null;
  school: MailMessage | null;
}

/** The lesson as the teacher calls it: the learner's name, never their address. */
const teacherLessonName = (row: BookingRow) => `${row.language ? `${row.language} ` : ''}trial lesson with ${plainName(row.fullName)}`;
const kindOfLesson = (row: BookingRow) => `${row.language ? `${row.language} ` : ''}trial lesson`;
/** "a French trial lesson", "an Italian trial lesson" */
const a = (words: string) => `${/^[aeiou]/i.test(words) ? 'an' : 'a'} ${words}`;

const isRemoval = (event: LessonEvent) => event.kind === 'declined' || event.kind === 'expired' || event.kind === 'withdrawn' || event.kind === 'cancelled';
/** When a request is to be answered by (the event's, else the row's). */
const answerByOf = (event: { answerBy?: Date }, row: BookingRow) => event.answerBy ?? row.answerBy ?? row.start ?? new Date(0);
const reasonLine = (reason: string | null | undefined, label = 'Reason') => (reason ? [`${label}: ${reason}`] : []);

function attachmentFor(event: LessonEvent, row: BookingRow & { start: Date }, c: LessonMailContext, url: string | undefined) {
  const cancelled = isRemoval(event);
  return {
    filename: 'learnlingo-trial-lesson.ics',
    contentType: `text/calendar; charset=utf-8; method=${cancelled ? 'CANCEL' : 'PUBLISH'}`,
    content: lessonCalendar(row, url, {
      sequence: c.sequence,
      cancelled,
      tentative: event.kind === 'requested',
      ...(cancelled && row.cancelledAt ? { stamp: row.cancelledAt } : {}),
    }),
  };
}

function learnerMail(event: LessonEvent, row: BookingRow & { start: Date }, c: LessonMailContext): MailMessage {
  const lesson = lessonName(row);
  const at = when(row.start, c.learnerTimeZone);
  const manage = c.manageUrl ? [`See it or cancel it: ${c.manageUrl}`] : [];
  const see = c.manageUrl ? [`See it: ${c.manageUrl}`] : [];
  const mail = (subject: string, body: string[], calendarNote: string): MailMessage => ({
    to: row.email,
    subject,
    text: [`Hello ${plainName(row.fullName)},`, '', ...body, calendarNote, '', 'LearnLingo'].join('\n'),
    attachments: [attachmentFor(event, row, c, c.manageUrl || undefined)],
  });
  const again = 'Nothing is booked: you can choose another time on LearnLingo.';
  switch (event.kind) {
    case 'booked':
      return mail(`Your ${lesson} is booked`, [`your ${lesson} is booked:`, at, '', ...manage], 'The attached file adds it to your calendar.');
    case 'requested':
      return mail(
        `Your request for ${a(lesson)} is sent`,
        [
          `your request for ${a(lesson)} is sent:`,
          at,
          '',
          `${row.teacher.name} ${row.teacher.surname} answers it by ${deadline(answerByOf(event, row), c.learnerTimeZone)}; until then the time is kept for you, and we e-mail you the answer.`,
          ...see,
        ],
        'The attached file adds it to your calendar as not yet confirmed.',
      );
    case 'accepted':
      return mail(`Your ${lesson} is confirmed`, [`the teacher accepted your request: your ${lesson} is confirmed:`, at, '', ...manage], 'The attached file updates it in your calendar.');
    case 'declined':
      return mail(
        `Your request for ${a(lesson)} was declined`,
        [`the teacher declined your request for ${a(lesson)} on ${at}.`, ...reasonLine(event.reason, 'Their reason'), '', again],
        'The attached file removes it from your calendar.',
      );
    case 'expired':
      return mail(
        `Your request for ${a(lesson)} was not answered`,
        [`the teacher did not answer your request for ${a(lesson)} on ${at} in time, so it has expired.`, '', again],
        'The attached file removes it from your calendar.',
      );
    case 'withdrawn':
      return mail(`Your request for ${a(lesson)} is cancelled`, [`your request for ${a(lesson)} on ${at} is cancelled, as you asked.`], 'The attached file removes it from your calendar.');
    case 'cancelled':
      return mail(
        `Your ${lesson} was cancelled${event.by === 'learner' ? '' : ` by the ${event.by}`}`,
        [event.by === 'learner' ? `your ${lesson} on ${at} was cancelled.` : `the ${event.by} cancelled your ${lesson} on ${at}.`, ...reasonLine(event.reason, event.by === 'teacher' ? 'Their reason' : 'Reason')],
        'The attached file removes it from your calendar.',
      );
  }
}

/** The teacher's e-mail's subject and lines (the school's copy adds a few). */
function teacherText(event: LessonEvent, row: BookingRow & { start: Date }, c: LessonMailContext): { subject: string; body: string[] } {
  const lesson = teacherLessonName(row);
  const at = when(row.start, c.teacherTimeZone);
  const details = [at, '', `Learner: ${plainName(row.fullName)}`, ...(row.language ? [`Language: ${row.language}`] : []), `Reason for learning: ${row.reason}`];
  const yours = ['', `Your lessons: ${c.teachUrl}`];
  switch (event.kind) {
    case 'booked':
      return { subject: `New lesson: ${lesson}, ${at}`, body: [`A learner booked ${a(kindOfLesson(row))} with you:`, ...details, ...yours] };
    case 'requested':
      return {
        subject: `New request: ${lesson}, ${at}`,
        body: [
          `A learner asks for ${a(kindOfLesson(row))} with you:`,
          ...details,
          '',
          `Accept or decline it by ${deadline(answerByOf(event, row), c.teacherTimeZone)}: ${c.teachUrl}`,
          'Unanswered by then, it is declined for you; that does not count against you.',
        ],
      };
    case 'accepted':
      return { subject: `Confirmed: ${lesson}, ${at}`, body: [`You accepted this ${kindOfLesson(row)}:`, ...details, ...yours] };
    case 'declined':
      return { subject: `Declined: ${lesson}, ${at}`, body: [`You declined this request for ${a(kindOfLesson(row))}:`, ...details, ...reasonLine(event.reason, 'Your reason')] };
    case 'expired':
      return {
        subject: `Expired: ${lesson}, ${at}`,
        body: [`This request for ${a(kindOfLesson(row))} was not answered by its deadline, so it was declined (that does not count against you):`, ...details],
      };
    case 'withdrawn':
      return { subject: `Withdrawn: ${lesson}, ${at}`, body: [`The learner withdrew this request for ${a(kindOfLesson(row))}; nothing to answer:`, ...details] };
    case 'cancelled': {
      const who = event.by === 'learner' ? 'the learner' : event.by === 'teacher' ? 'you' : 'the school';
      return {
        subject: `Cancelled by ${who}: ${lesson}, ${at}`,
        body: [`This ${kindOfLesson(row)} was cancelled by ${who}:`, ...details, ...reasonLine(event.reason, event.by === 'teacher' ? 'Your reason' : 'Reason')],
      };
    }
  }
}

/** A lesson's e-mails for one change, each written for its reader (pure: tests call it with any zone). */
export function lessonEventMails(event: LessonEvent, row: BookingRow & { start: Date }, c: LessonMailContext): LessonMails {
  const learner = c.learner === false ? null : learnerMail(event, row, c);
  const { subject, body } = teacherText(event, row, c);
  const attachment = attachmentFor(event, row, c, undefined);
  const teacher: MailMessage | null = c.teacherEmail
    ? { to: c.teacherEmail, subject, text: [...body, '', 'The attached file keeps your calendar up to date.', '', 'LearnLingo'].join('\n'), attachments: [attachment] }
    : null;
  // the school's copy: optional, and never a second one to the same address
  const schoolTo = c.schoolEmail && c.schoolEmail.toLowerCase() !== c.teacherEmail?.toLowerCase() ? c.schoolEmail : null;
  const school: MailMessage | null = schoolTo
    ? {
        to: schoolTo,
        subject,
        text: [
          c.teacherEmail
            ? `The school's copy (the teacher was e-mailed at their account's address). Teacher: ${row.teacher.name} ${row.teacher.surname}`
            : `The school's copy: ${row.teacher.name} ${row.teacher.surname} has no account on LearnLingo, so only the school is told.`,
          '',
          ...body.map((line) => (line.startsWith('Learner: ') ? `${line} <${row.email}>` : line)),
          `UTC: ${row.start.toISOString()}`,
          '',
          'LearnLingo',
        ].join('\n'),
        attachments: [attachment],
      }
    : null;
  return { learner, teacher, school };
}

/** The two reminders, due 24 h before the start: each in its reader's zone, no calendar file (the event is already there). */
export function reminderMails(row: BookingRow & { start: Date }, c: LessonMailContext): LessonMails {
  const lesson = lessonName(row);
  const learner: MailMessage | null =
    c.learner === false
      ? null
      : {
          to: row.email,
          subject: `Tomorrow: your ${lesson}`,
          text: [
            `Hello ${plainName(row.fullName)},`,
            '',
            `a reminder: your ${lesson} starts in 24 hours:`,
            when(row.start, c.learnerTimeZone),
            ...(c.manageUrl ? ['', `See it: ${c.manageUrl}`] : []),
            '',
            'LearnLingo',
          ].join('\n'),
        };
  const teacherLesson = teacherLessonName(row);
  const teacherAt = when(row.start, c.teacherTimeZone);
  const teacher: MailMessage | null = c.teacherEmail
    ? {
        to: c.teacherEmail,
        subject: `Tomorrow: ${teacherLesson}, ${teacherAt}`,
        text: [
          `A reminder: this ${kindOfLesson(row)} starts in 24 hours:`,
          teacherAt,
          '',
          `Learner: ${plainName(row.fullName)}`,
          ...(row.language ? [`Language: ${row.language}`] : []),
          `Reason for learning: ${row.reason}`,
          '',
          `Your lessons: ${c.teachUrl}`,
          '',
          'LearnLingo',
        ].join('\n'),
      }
    : null;
  return { learner, teacher, school: null };
}

/** What queueLessonMails needs besides the row and the event. */
export interface LessonMailSetup {
  publicOrigin: string;
  /** where the learner sees (and cancels) it; '' for none */
  manageUrl: string;
  /** the school's hours: their zone is the zone of teachers without their own */
  schoolSchedule: Schedule;
  /** the school's contact address (its copy); unset: none */
  schoolEmail: string | undefined;
  /** the clock (ms): a reminder whose time is already past is not queued */
  now: number;
  /** false: no learner's e-mail nor reminder (their account is being deleted) */
  learner?: boolean;
}

/** The teacher's account address (teacher_account → user), or null. */
export async function teacherAccountEmail(tx: Db, teacherId: string): Promise<string | null> {
  const [row] = await tx
    .select({ email: user.email })
    .from(teacherAccount)
    .innerJoin(user, eq(user.id, teacherAccount.userId))
    .where(eq(teacherAccount.teacherId, teacherId));
  return row?.email ?? null;
}

/**
 * Queues the e-mails of one change of a lesson in `tx` (the change's own transaction): the
 * learner's, the teacher's and the school's copy, with the .ics at this change's SEQUENCE (0 for
 * the first; each later change adds one to booking.ics_sequence). A lesson that becomes
 * confirmed (booked, accepted) gets its two reminders, due 24 h before the start if that is
 * still ahead; one that ends (declined, expired, cancelled) has them taken back. The one place
 * where every lesson event turns into mail (decision 118).
 */
export async function queueLessonMails(tx: Db, event: LessonEvent, row: BookingRow, setup: LessonMailSetup): Promise<void> {
  const { start } = row;
  if (!start) return;
  const lesson = { ...row, start };
  const first = event.kind === 'booked' || event.kind === 'requested';
  const [seq] = first
    ? await tx.select({ n: booking.icsSequence }).from(booking).where(eq(booking.id, row.id))
    : await tx
        .update(booking)
        .set({ icsSequence: sql`${booking.icsSequence} + 1` })
        .where(eq(booking.id, row.id))
        .returning({ n: booking.icsSequence });
  const context: LessonMailContext = {
    manageUrl: setup.manageUrl,
    teachUrl: `${setup.publicOrigin}/teach/lessons`,
    learnerTimeZone: row.learnerTimeZone ?? 'UTC',
    teacherTimeZone: (row.teacher.schedule ?? setup.schoolSchedule).timeZone,
    teacherEmail: await teacherAccountEmail(tx, row.teacher.id),
    schoolEmail: setup.schoolEmail,
    sequence: seq?.n ?? 0,
    learner: setup.learner !== false,
  };
  const mails = lessonEventMails(event, lesson, context);
  for (const message of [mails.learner, mails.teacher, mails.school]) if (message) await enqueueMail(tx, message);
  if (event.kind === 'booked' || event.kind === 'accepted') await queueReminders(tx, lesson, context, setup.now);
  else if (isRemoval(event)) await takeBackReminders(tx, row.id);
}

/** The reminders' due time: 24 h of real time before the start, whatever the zones' clocks do meanwhile. */
export const reminderDueAt = (start: Date) => new Date(start.getTime() - REMINDER_BEFORE_MS);

/** Queues the two reminders, due 24 h before the start; none if that time is already past (a lesson booked < 24 h ahead). */
async function queueReminders(tx: Db, row: BookingRow & { start: Date }, c: LessonMailContext, now: number): Promise<void> {
  const dueAt = reminderDueAt(row.start);
  if (dueAt.getTime() <= now) return;
  await takeBackReminders(tx, row.id);
  const mails = reminderMails(row, c);
  const learnerId = mails.learner ? await enqueueMail(tx, mails.learner, { dueAt }) : null;
  const teacherId = mails.teacher ? await enqueueMail(tx, mails.teacher, { dueAt }) : null;
  await tx.update(booking).set({ reminderMailId: learnerId, teacherReminderMailId: teacherId }).where(eq(booking.id, row.id));
}

/** Takes back the lesson's reminders that have not gone yet (a lesson cancelled, declined or expired). */
export async function takeBackReminders(tx: Db, bookingId: string): Promise<void> {
  await tx.execute(
    sql`delete from ${mailOutbox} m using ${booking} b
        where b.id = ${bookingId} and m.id in (b.reminder_mail_id, b.teacher_reminder_mail_id)
          and m.written_at is null and m.failed_at is null`,
  );
}
