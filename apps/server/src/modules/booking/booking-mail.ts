import type { MailMessage } from '../../mail/index.js';
import type { BookingRow } from './booking-repository.js';
import { LESSON_MS } from './schedule.js';

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

function when(start: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  return `${day.replace(',', '')}, ${time.format(start)}–${time.format(new Date(start.getTime() + LESSON_MS))} (${timeZone})`;
}

const lessonName = (row: BookingRow) => `${row.language ? `${row.language} ` : ''}trial lesson with ${row.teacher.name} ${row.teacher.surname}`;

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
            `Hello ${row.fullName},`,
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
            `Hello ${row.fullName},`,
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
      `Learner: ${row.fullName} <${row.email}>`,
      `Reason: ${row.reason}`,
      '',
      'LearnLingo',
    ].join('\n'),
    attachments: [attachment],
  };
  return [learner, school];
}
