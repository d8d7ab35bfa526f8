/*
 * A one-event iCalendar file (RFC 5545) for a trial lesson. Times are UTC (`…Z`), so every
 * calendar shows the same instant in its own zone. Written by hand: one event with a few
 * text properties needs escaping and line folding, not a library.
 */

export interface CalendarEvent {
  uid: string;
  start: Date;
  end: Date;
  /** when this version of the event was made (DTSTAMP) */
  stamp: Date;
  summary: string;
  description: string;
  /** a cancelled lesson is sent as a cancellation of the same UID */
  cancelled: boolean;
  /** a request still waiting for the teacher: TENTATIVE (not cancelled) */
  tentative?: boolean;
  /** RFC 5545 SEQUENCE: grows with each change sent for this UID (booking.ics_sequence, decision 118) */
  sequence: number;
  url?: string;
}

const utc = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');

/** TEXT value escaping (RFC 5545 3.3.11). */
const text = (value: string) => value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Folds a content line at 75 octets without splitting a UTF-8 character (RFC 5545 3.1). */
function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

const status = (event: CalendarEvent) => (event.cancelled ? 'CANCELLED' : event.tentative ? 'TENTATIVE' : 'CONFIRMED');

/** One VEVENT's content lines. */
function eventLines(event: CalendarEvent): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${utc(event.stamp)}`,
    `DTSTART:${utc(event.start)}`,
    `DTEND:${utc(event.end)}`,
    `SUMMARY:${text(event.summary)}`,
    `DESCRIPTION:${text(event.description)}`,
    ...(event.url ? [`URL:${event.url}`] : []),
    `STATUS:${status(event)}`,
    `SEQUENCE:${event.sequence}`,
    'END:VEVENT',
  ];
}

const file = (lines: string[]) => `${lines.map(fold).join('\r\n')}\r\n`;

/** The .ics of one e-mail: METHOD:CANCEL for a cancelled event, else PUBLISH. */
export function calendarFile(event: CalendarEvent): string {
  return file([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//LearnLingo//Trial lessons//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${event.cancelled ? 'CANCEL' : 'PUBLISH'}`,
    ...eventLines(event),
    'END:VCALENDAR',
  ]);
}

/**
 * A subscribed calendar (a private feed): every event with its own STATUS, no METHOD (RFC 7986
 * NAME / X-WR-CALNAME for the calendar's title; REFRESH-INTERVAL asks for an hourly look).
 */
export function calendarFeedFile(name: string, events: CalendarEvent[]): string {
  return file([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//LearnLingo//Trial lessons//EN',
    'CALSCALE:GREGORIAN',
    `NAME:${text(name)}`,
    `X-WR-CALNAME:${text(name)}`,
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...events.flatMap(eventLines),
    'END:VCALENDAR',
  ]);
}
