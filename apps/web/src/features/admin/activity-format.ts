import type { ActivityEntry } from '@learnlingo/contract';

/*
 * How the audit log reads (plain functions, unit-tested): an instant in UTC (the same text on
 * the server and in any browser), what an action means, what changed.
 */

/** 2026-11-27 03:59 UTC */
export function formatInstant(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const ACTIONS: Record<string, string> = {
  'user.create': 'Created the account',
  'user.role': 'Changed the role',
  'user.deactivate': 'Deactivated the account',
  'user.reactivate': 'Reactivated the account',
  'invitation.create': 'Invited a teacher',
  'invitation.resend': 'Re-sent an invitation',
  'invitation.revoke': 'Revoked an invitation',
  'invitation.accept': 'Accepted an invitation',
  'profile.update': 'Edited their own profile',
  'teacher.create': 'Added a teacher',
  'teacher.update': 'Edited the teacher',
  'teacher.publish': 'Published the teacher',
  'teacher.hide': 'Hid the teacher',
  'teacher.draft': 'Made the teacher a draft',
  'teacher.import-overwrote-edit': 'An import replaced console edits',
  'photo.upload': 'Uploaded a photo',
  'review.hide': 'Hid a review',
  'booking.cancel': 'Cancelled a lesson',
  'school.update': 'Changed the school settings',
  'closure.create': 'Added a school closure',
  'closure.delete': 'Removed a school closure',
  // a teacher's own hours (/teach)
  'hours.update': 'Changed the weekly hours',
  'timeOff.create': 'Added time off',
  'timeOff.delete': 'Removed time off',
  'extraHours.create': 'Added extra hours',
  'extraHours.delete': 'Removed extra hours',
};

/** "Changed the role"; an action this console does not know yet reads as it is stored. */
export const describeAction = (action: string): string => ACTIONS[action] ?? action;

const SUBJECTS: Record<string, string> = { user: 'account', teacher: 'teacher', school: 'school', closure: 'closure', booking: 'lesson', photo: 'photo', review: 'review' };
/** "account Ada Lovelace <ada@…>", "teacher Ann Lee (t000031)"; the id alone once the subject is gone. */
export const describeSubject = (subject: ActivityEntry['subject']): string => {
  const kind = SUBJECTS[subject.type] ?? subject.type;
  if (subject.label === null) return `${kind} ${subject.id}`;
  return subject.type === 'user' ? `${kind} ${subject.label}` : `${kind} ${subject.label} (${subject.id})`;
};

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as one short line. */
function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'none';
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 79)}…` : value;
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 79)}…` : json;
}

/** Each field that changed: [field, before, after], in the order they were recorded. */
export function changesOf(before: unknown, after: unknown): [string, string, string][] {
  const was = isRecord(before) ? before : {};
  const now = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])];
  return keys.map((key) => [key, show(was[key]), show(now[key])]);
}
