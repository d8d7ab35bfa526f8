/*
 * Lesson times in the learner's zone. The server speaks UTC instants; the browser shows
 * them in a zone the learner can change (default: the browser's own), via Intl.
 */

/** The browser's IANA zone (UTC when it does not say). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Every zone the browser knows, with `current` in it. */
export function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all].sort();
}

const cache = new Map<string, Intl.DateTimeFormat>();
function format(timeZone: string, options: Intl.DateTimeFormatOptions, key: string): Intl.DateTimeFormat {
  const id = `${key}|${timeZone}`;
  let f = cache.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, ...options });
    cache.set(id, f);
  }
  return f;
}

/** `2026-11-03` in `timeZone`: groups starts by the learner's calendar day. */
export function dayKey(iso: string, timeZone: string): string {
  const parts = format(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }, 'key').formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** `Tue 3 Nov` */
export const formatDay = (iso: string, timeZone: string) =>
  format(timeZone, { weekday: 'short', day: 'numeric', month: 'short' }, 'day').format(new Date(iso)).replace(',', '');

/** `14:00` */
export const formatTime = (iso: string, timeZone: string) =>
  format(timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, 'time').format(new Date(iso));

/** `Tuesday 3 November 2026` and `14:00–15:00`: the hours are one unit, never broken across lines. */
export function lessonTimeParts(start: string, end: string | null, timeZone: string): { day: string; hours: string } {
  const day = format(timeZone, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }, 'long').format(new Date(start)).replace(',', '');
  return { day, hours: `${formatTime(start, timeZone)}${end ? `–${formatTime(end, timeZone)}` : ''}` };
}


/** `Europe/Kyiv` → `Europe/Kyiv (GMT+2)` at the given instant */
export function zoneLabel(timeZone: string, at = new Date()): string {
  const offset = format(timeZone, { timeZoneName: 'shortOffset' }, 'offset')
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  return offset ? `${timeZone.replaceAll('_', ' ')} (${offset})` : timeZone.replaceAll('_', ' ');
}

/**
 * The zones a server-rendered booking page offers (no JavaScript: the browser's own zone is
 * unknown), with `current` and `also` among them: one list for the server and the browser,
 * so the page hydrates as it was rendered (the modal offers every zone the browser knows).
 */
const PAGE_ZONES = [
  'UTC',
  'Pacific/Honolulu',
  'America/Anchorage',
  'America/Los_Angeles',
  'America/Denver',
  'America/Chicago',
  'America/Mexico_City',
  'America/New_York',
  'America/Toronto',
  'America/Sao_Paulo',
  'America/Argentina/Buenos_Aires',
  'Atlantic/Reykjavik',
  'Europe/London',
  'Europe/Lisbon',
  'Europe/Madrid',
  'Europe/Paris',
  'Europe/Berlin',
  'Europe/Rome',
  'Europe/Warsaw',
  'Europe/Kyiv',
  'Europe/Athens',
  'Europe/Istanbul',
  'Europe/Moscow',
  'Africa/Lagos',
  'Africa/Cairo',
  'Africa/Johannesburg',
  'Africa/Nairobi',
  'Asia/Dubai',
  'Asia/Karachi',
  'Asia/Kolkata',
  'Asia/Dhaka',
  'Asia/Bangkok',
  'Asia/Shanghai',
  'Asia/Singapore',
  'Asia/Tokyo',
  'Asia/Seoul',
  'Australia/Sydney',
  'Pacific/Auckland',
];

export function pageTimeZones(current: string, also?: string): string[] {
  const zones = [...PAGE_ZONES];
  for (const zone of [also, current]) if (zone && !zones.includes(zone)) zones.push(zone);
  return zones;
}

/** Whether the runtime knows `name` as a time zone (a `?tz=` from the URL, say). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
