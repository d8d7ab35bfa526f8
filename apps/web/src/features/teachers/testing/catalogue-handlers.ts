import { http, HttpResponse } from 'msw';
import { LEVELS, type Facets, type Teacher } from '@learnlingo/contract';
import { apiUrl } from '../../../test/msw-server';
import { catalogueOrder, loadTeachers, pageOf } from './teachers-fixture';

/** What the fake server saw: each GET /api/teachers query. */
export interface CatalogueRequests {
  pages: URLSearchParams[];
}

/** The server's filtering rules: language and level contained, price at most. */
export function filterTeachers(teachers: readonly Teacher[], query: URLSearchParams): Teacher[] {
  const language = query.get('language');
  const level = query.get('level');
  const price = query.get('price');
  return teachers.filter(
    (t) =>
      (!language || t.languages.includes(language)) &&
      (!level || t.levels.some((l) => l === level)) &&
      (!price || t.price_per_hour <= Number(price)),
  );
}

export function facetsOf(teachers: readonly Teacher[]): Facets {
  const levels = new Set(teachers.flatMap((t) => t.levels));
  return {
    languages: [...new Set(teachers.flatMap((t) => t.languages))].sort(),
    levels: LEVELS.filter((level) => levels.has(level)),
    prices: [...new Set(teachers.map((t) => t.price_per_hour))].sort((a, b) => a - b),
  };
}

/** MSW handlers that serve the real catalogue the way GET /api/teachers* does. */
export function catalogueHandlers(teachers: readonly Teacher[] = catalogueOrder(loadTeachers())) {
  const requests: CatalogueRequests = { pages: [] };
  const handlers = [
    http.get(apiUrl('/teachers/facets'), () => HttpResponse.json(facetsOf(teachers))),
    http.get(apiUrl('/teachers/:id'), ({ params }) => {
      const teacher = teachers.find((t) => t.id === params.id);
      return teacher
        ? HttpResponse.json(teacher)
        : HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'Teacher not found' } }, { status: 404 });
    }),
    http.get(apiUrl('/teachers'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      requests.pages.push(query);
      const limit = Number(query.get('limit') ?? 4);
      return HttpResponse.json(pageOf(filterTeachers(teachers, query), query.get('cursor'), limit));
    }),
  ];
  return { handlers, requests, teachers };
}
