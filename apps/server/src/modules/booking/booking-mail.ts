import type { MailMessage } from '../../mail/index.js';
import type { BookingRow } from './booking-repository.js';
import { calendarFile } from './ics.js';
import { LESSON_MS, type Schedule } from './schedule.js';

/*
 * The e-mails a booking and a cancellation send, through the product's one mailer (queued
 * with the booking's own transaction, so a lesson and its e-mails exist together or not
 * at all): the learner's, with the .ics attached, and the school's copy for the teacher
 * (the catalogue has no teacher addresses: SCHOOL_EMAIL receives them; unset, none is sent).
 */

export interface BookingMailContext {
  row: BookingRow;
  /** the calendar file (PUBLISH for a booking, CANCEL for a cancellation) */
  ics: string;
  /** where the learner sees and cancels it */
  manageUrl: string;
  /** the learner's zone for the times in their e-mail (the teacher's zone is used for the school's) */
  learnerTimeZone: string;
  teacherTimeZone: string;
  schoolEmail: string | undefined;
}

export function when(start: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.replace(',', '')}, ${time.format(start)}–${time.format(new Date(start.getTime() + LESSON_MS))} (${timeZone})`;
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

export const lessonName = (row: BookingRow) => `${row.language ? `${row.language} ` : ''}trial lesson with ${row.teacher.name} ${row.teacher.surname}`;

/**
 * The lesson's .ics: a cancelled lesson's is a CANCEL of the same UID, stamped when it was
 * cancelled. `url`: where the learner manages it (none in the school's copy of a deleted
 * account's cancellation).
 */
export function lessonCalendar(row: BookingRow & { start: Date }, url?: string): string {
  const teacherName = `${row.teacher.name} ${row.teacher.surname}`;
  const language = row.language ? `${row.language} ` : '';
  return calendarFile({
    uid: `${row.id}@learnlingo`,
    start: row.start,
    end: new Date(row.start.getTime() + LESSON_MS),
    stamp: row.cancelledAt ?? row.createdAt,
    summary: `LearnLingo: ${language}trial lesson with ${teacherName}`,
    description: `Trial ${language}lesson (60 minutes) with ${teacherName}.${url ? ` Manage it: ${url}` : ''}`,
    cancelled: row.cancelledAt !== null,
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

export interface LessonMailOptions {
  /** where the learner sees and cancels it ('' for none) */
  manageUrl: string;
  learnerTimeZone: string;
  /** the school's hours: their zone is the zone of teachers without their own */
  schoolSchedule: Schedule;
  schoolEmail: string | undefined;
}

/** bookingMails with the lesson's .ics and the teacher's zone (their own hours', or the school's). */
export function lessonMails(kind: 'booked' | 'cancelled', row: BookingRow & { start: Date }, o: LessonMailOptions): MailMessage[] {
  return bookingMails(kind, {
    row,
    ics: lessonCalendar(row, o.manageUrl || undefined),
    manageUrl: o.manageUrl,
    learnerTimeZone: o.learnerTimeZone,
    teacherTimeZone: (row.teacher.schedule ?? o.schoolSchedule).timeZone,
    schoolEmail: o.schoolEmail,
  });
}

export function bookingMails(kind: 'booked' | 'cancelled', c: BookingMailContext): MailMessage[] {
  const { row } = c;
  if (!row.start) return [];
  const attachment = {
    filename: 'learnlingo-trial-lesson.ics',
    contentType: `text/calendar; charset=utf-8; method=${kind === 'booked' ? 'PUBLISH' : 'CANCEL'}`,
    content: c.ics,
  };
  const learnerWhen = when(row.start, c.learnerTimeZone);
  const learner: MailMessage =
    kind === 'booked'
      ? {
          to: row.email,
          subject: `Your ${lessonName(row)} is booked`,
          text: [
            `Hello ${plainName(row.fullName)},`,
            '',
            `your ${lessonName(row)} is booked:`,
            learnerWhen,
            '',
            `See it or cancel it (up to 12 hours before it starts): ${c.manageUrl}`,
            'The attached file adds it to your calendar.',
            '',
            'LearnLingo',
          ].join('\n'),
          attachments: [attachment],
        }
      : {
          to: row.email,
          subject: `Your ${lessonName(row)} was cancelled`,
          text: [
            `Hello ${plainName(row.fullName)},`,
            '',
            `your ${lessonName(row)} on ${learnerWhen} was cancelled.`,
            'The attached file removes it from your calendar.',
            '',
            'LearnLingo',
          ].join('\n'),
          attachments: [attachment],
        };
  if (!c.schoolEmail) return [learner];
  const teacherWhen = when(row.start, c.teacherTimeZone);
  const school: MailMessage = {
    to: c.schoolEmail,
    subject: `${kind === 'booked' ? 'New' : 'Cancelled'}: ${lessonName(row)}, ${teacherWhen}`,
    text: [
      kind === 'booked' ? `A ${lessonName(row)} was booked:` : `This ${lessonName(row)} was cancelled:`,
      teacherWhen,
      `UTC: ${row.start.toISOString()}`,
      '',
      `Learner: ${plainName(row.fullName)} <${row.email}>`,
      `Reason: ${row.reason}`,
      '',
      'LearnLingo',
    ].join('\n'),
    attachments: [attachment],
  };
  return [learner, school];
}
