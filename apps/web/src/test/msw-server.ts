import { setupServer } from 'msw/node';
import { http, HttpResponse } from 'msw';

/** Where the app's API client sends requests under jsdom. */
export const apiUrl = (path: string) => `${globalThis.location.origin}/api${path}`;

/**
 * Default handlers: signed out, empty catalogue. Tests override per case with
 * `server.use(...)`; an unhandled request fails the test.
 */
export const defaultHandlers = [
  http.get(apiUrl('/auth/get-session'), () => HttpResponse.json(null)),
  http.get(apiUrl('/stats'), () => HttpResponse.json({ teachers: 30, reviews: 60, languages: 8, lessonsDone: 33000 })),
  http.get(apiUrl('/teachers/facets'), () =>
    HttpResponse.json({ languages: ['English', 'French'], levels: ['A1 Beginner', 'B1 Intermediate'], prices: [25, 30] }),
  ),
  http.get(apiUrl('/teachers'), () => HttpResponse.json({ items: [], nextCursor: null })),
  http.get(apiUrl('/favorites'), () =>
    HttpResponse.json({ error: { code: 'UNAUTHORIZED', message: 'Sign in first' } }, { status: 401 }),
  ),
];

export const server = setupServer(...defaultHandlers);
