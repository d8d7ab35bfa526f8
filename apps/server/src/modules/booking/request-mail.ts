import type { MailMessage } from '../../mail/index.js';
import { lessonCalendar, lessonName, plainName, when, type LessonMailOptions } from './booking-mail.js';
import type { BookingRow } from './booking-repository.js';

/*
 * The e-mails of a request's life and of a teacher's cancel (issue 25, decision 117), in the
 * shapes of booking-mail.ts: plain text, the learner's in the zone they booked in, the
 * teacher's copy to SCHOOL_EMAIL (unset: none) in the teacher's zone. Each is queued by the
 * one function of its event in lesson-events.ts, in the transaction of the state change.
 */

export type RequestMailKind = 'requested' | 'accepted' | 'declined' | 'expired' | 'withdrawn' | 'teacher-cancelled';

export interface RequestMailOptions extends LessonMailOptions {
  /** the teacher's reason (a decline or a cancel), told to the learner */
  reason?: string | null;
}

/** "Tuesday 27 October 2026, 10:00 (Europe/Berlin)": the time an answer is due, in `timeZone`. */
function deadline(at: Date, timeZone: string): string {
  const day = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return `${day.replace(',', '')}, ${time} (${timeZone})`;
}

const seeIt = (manageUrl: string) =>
  manageUrl ? `See it or cancel it: ${manageUrl}` : 'See it with the link in the e-mail of your booking.';

export function requestMails(kind: RequestMailKind, row: BookingRow & { start: Date }, o: RequestMailOptions): MailMessage[] {
  const learnerWhen = when(row.start, o.learnerTimeZone);
  const teacherTimeZone = (row.teacher.schedule ?? o.schoolSchedule).timeZone;
  const teacherWhen = when(row.start, teacherTimeZone);
  const teacherName = `${row.teacher.name} ${row.teacher.surname}`;
  const reason = o.reason?.trim() ? o.reason.trim() : null;
  const hello = `Hello ${plainName(row.fullName)},`;
  const ics = (method: 'PUBLISH' | 'CANCEL') => ({
    filename: 'learnlingo-trial-lesson.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: lessonCalendar(row, o.manageUrl || undefined),
  });

  let learner: MailMessage;
  let school: { subject: string; first: string } | null = null;
  switch (kind) {
    case 'requested': {
      const by = row.answerBy ? deadline(row.answerBy, o.learnerTimeZone) : 'soon';
      learner = {
        to: row.email,
        subject: `Your request for a ${lessonName(row)} is sent`,
        text: [
          hello,
          '',
          `your request for a ${lessonName(row)} is sent:`,
          learnerWhen,
          '',
          `${teacherName} answers it by ${by}. Until then the time is kept for you; we write as soon as they answer.`,
          seeIt(o.manageUrl),
          '',
          'LearnLingo',
        ].join('\n'),
      };
      const teacherBy = row.answerBy ? deadline(row.answerBy, teacherTimeZone) : 'soon';
      school = { subject: `Request: ${lessonName(row)}, ${teacherWhen}`, first: `A ${lessonName(row)} was requested. Accept or decline it by ${teacherBy} on your Teach page:` };
      break;
    }
    case 'accepted':
      learner = {
        to: row.email,
        subject: `Your ${lessonName(row)} is confirmed`,
        text: [
          hello,
          '',
          `${teacherName} accepted your request: your ${lessonName(row)} is confirmed.`,
          learnerWhen,
          '',
          seeIt(o.manageUrl),
          'The attached file adds it to your calendar.',
          '',
          'LearnLingo',
        ].join('\n'),
        attachments: [ics('PUBLISH')],
      };
      school = { subject: `Accepted: ${lessonName(row)}, ${teacherWhen}`, first: `This ${lessonName(row)} was accepted:` };
      break;
    case 'declined':
      learner = {
        to: row.email,
        subject: `Your request for a ${lessonName(row)} was declined`,
        text: [
          hello,
          '',
          `${teacherName} cannot take your ${lessonName(row)} on ${learnerWhen}.`,
          ...(reason ? [`Their reason: ${reason}`] : []),
          '',
          'Nothing is booked. Please choose another time, or another teacher.',
          '',
          'LearnLingo',
        ].join('\n'),
      };
      school = { subject: `Declined: ${lessonName(row)}, ${teacherWhen}`, first: `This ${lessonName(row)} request was declined:` };
      break;
    case 'expired':
      learner = {
        to: row.email,
        subject: `Your request for a ${lessonName(row)} was not answered`,
        text: [
          hello,
          '',
          `${teacherName} did not answer your request for a ${lessonName(row)} on ${learnerWhen} in time, so it is cancelled.`,
          '',
          'Nothing is booked. Please choose another time, or another teacher.',
          '',
          'LearnLingo',
        ].join('\n'),
      };
      school = { subject: `Not answered: ${lessonName(row)}, ${teacherWhen}`, first: `This ${lessonName(row)} request was not answered in time; the time is free again:` };
      break;
    case 'withdrawn':
      learner = {
        to: row.email,
        subject: `Your request for a ${lessonName(row)} is withdrawn`,
        text: [hello, '', `your request for a ${lessonName(row)} on ${learnerWhen} is withdrawn. Nothing is booked.`, '', 'LearnLingo'].join('\n'),
      };
      school = { subject: `Withdrawn: ${lessonName(row)}, ${teacherWhen}`, first: `The learner withdrew this ${lessonName(row)} request:` };
      break;
    case 'teacher-cancelled':
      learner = {
        to: row.email,
        subject: `Your ${lessonName(row)} was cancelled by the teacher`,
        text: [
          hello,
          '',
          `${teacherName} had to cancel your ${lessonName(row)} on ${learnerWhen}.`,
          ...(reason ? [`Their reason: ${reason}`] : []),
          '',
          'Please choose another time, or another teacher. The attached file removes it from your calendar.',
          '',
          'LearnLingo',
        ].join('\n'),
        attachments: [ics('CANCEL')],
      };
      school = { subject: `Cancelled by the teacher: ${lessonName(row)}, ${teacherWhen}`, first: `This ${lessonName(row)} was cancelled by the teacher:` };
      break;
  }
  if (!o.schoolEmail || !school) return [learner];
  return [
    learner,
    {
      to: o.schoolEmail,
      subject: school.subject,
      text: [
        school.first,
        teacherWhen,
        `UTC: ${row.start.toISOString()}`,
        '',
        `Learner: ${plainName(row.fullName)} <${row.email}>`,
        `Reason for the lesson: ${row.reason}`,
        ...(reason && (kind === 'declined' || kind === 'teacher-cancelled') ? [`Why: ${reason}`] : []),
        '',
        'LearnLingo',
      ].join('\n'),
      ...(kind === 'accepted' || kind === 'teacher-cancelled' ? { attachments: [ics(kind === 'accepted' ? 'PUBLISH' : 'CANCEL')] } : {}),
    },
  ];
}
