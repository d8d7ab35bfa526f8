import type { Db } from '../../db/client.js';
import { enqueueMail, type MailMessage } from '../../mail/index.js';
import { plainName } from '../booking/booking-mail.js';
import type { BookingRow } from '../booking/booking-repository.js';
import { noteReviewMail } from './review-service.js';

const LESSON_MS = 3_600_000;

/**
 * The one "how was your lesson?" e-mail (decision 112): queued with the lesson (its booking
 * or its confirmation), due at the lesson's end, taken back if the lesson is cancelled, marked
 * missed, or rated first. Plain text, like the booking's e-mails.
 */
export function reviewAskMail(row: BookingRow & { start: Date }, rateUrl: string): MailMessage {
  const lesson = `${row.language ? `${row.language} ` : ''}trial lesson with ${row.teacher.name} ${row.teacher.surname}`;
  return {
    to: row.email,
    subject: `How was your ${lesson}?`,
    text: [
      `Hello ${plainName(row.fullName)},`,
      '',
      `we hope you enjoyed your ${lesson}.`,
      `Rate it from 1 to 5 and, if you like, say a few words for other learners: ${rateUrl}`,
      '',
      'If the teacher did not come, you can tell us on the same page within 48 hours.',
      '',
      'LearnLingo',
    ].join('\n'),
  };
}

/** Queues reviewAskMail in `tx` for a lesson that has a time (a booking made or confirmed now). */
export async function queueReviewAsk(tx: Db, row: BookingRow, rateUrl: string): Promise<void> {
  if (!row.start || row.holdExpiresAt || row.cancelledAt) return;
  const id = await enqueueMail(tx, reviewAskMail({ ...row, start: row.start }, rateUrl), { dueAt: new Date(row.start.getTime() + LESSON_MS) });
  await noteReviewMail(tx, row.id, id);
}
