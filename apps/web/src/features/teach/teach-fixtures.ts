import { http, HttpResponse } from 'msw';
import type { TeachAvailability, TeachProfile } from '@learnlingo/contract';
import { apiUrl, server } from '../../test/msw-server';
import { sessionOf, signedInState } from '../../test/auth-state';

/** A teacher's own card as GET /api/teach/profile answers it. */
export const profile: TeachProfile = {
  id: 't000001',
  name: 'Jane',
  surname: 'Smith',
  languages: ['French', 'English'],
  levels: ['A1 Beginner', 'B1 Intermediate'],
  price_per_hour: 30,
  rating: 4.5,
  lessons_done: 120,
  lesson_info: 'Conversation first.',
  conditions: ['Be on time'],
  experience: 'Ten years.',
  avatar_url: null,
  country: 'France',
  timeZone: 'Europe/Paris',
  weeklyHours: 'Mon-Fri 09:00-17:00',
  status: 'published',
  statusReason: null,
  publishedAt: '2026-01-01T00:00:00.000Z',
  lessonsBooked: 3,
};

/** Their hours as GET /api/teach/availability answers them. */
export const availability: TeachAvailability = {
  teacherId: 't000001',
  timeZone: 'Europe/Paris',
  weeklyHours: [[{ from: '09:00', to: '12:00' }, { from: '14:00', to: '17:00' }], [{ from: '09:00', to: '17:00' }], [], [], [], [], []],
  ownHours: true,
  noticeHours: 12,
  horizonDays: 14,
  bookingMode: 'instant',
  timeOff: [{ id: '10000000-0000-4000-8000-000000000001', startsOn: '2026-12-21', endsOn: '2027-01-03', reason: 'Holiday' }],
  extraHours: [],
};

/** Signed in as a teacher whose profile the API answers (and no favourites). */
export function asTeacher() {
  server.use(
    http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(sessionOf('Jane Smith', 'jane@example.com', 'teacher'))),
    http.get(apiUrl('/favorites'), () => HttpResponse.json({ items: [] })),
    http.get(apiUrl('/teach/profile'), () => HttpResponse.json(profile)),
  );
  return signedInState('Jane Smith', 'jane@example.com', 'teacher');
}

export const invalid = (fields: Record<string, string>) => HttpResponse.json({ error: { code: 'VALIDATION_ERROR', message: 'Invalid request body', fields } }, { status: 400 });
