import { http, HttpResponse } from 'msw';
import { LEVELS, type Facets, type Teacher } from '@learnlingo/contract';
import { apiUrl } from '../../../test/msw-server';
import { catalogueOrder, loadTeachers, pageOf } from './teachers-fixture';

/** What the fake server saw: each GET /api/teachers query, and each GET /api/teachers/facets query. */
export interface CatalogueRequests {
  pages: URLSearchParams[];
  facets: URLSearchParams[];
}

const plain = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

/** The server's search, roughly: every word of q starts a word of the teacher's text. */
function matchesSearch(teacher: Teacher, q: string): boolean {
  const words = plain([teacher.name, teacher.surname, ...teacher.languages, teacher.lesson_info].join(' ')).split(/[^\p{L}\p{N}]+/u);
  return plain(q)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => words.some((w) => w.startsWith(word)));
}

const ORDERS: Record<string, (a: Teacher, b: Teacher) => number> = {
  'price-asc': (a, b) => a.price_per_hour - b.price_per_hour || (a.id < b.id ? -1 : 1),
  'price-desc': (a, b) => b.price_per_hour - a.price_per_hour || (a.id < b.id ? 1 : -1),
  lessons: (a, b) => b.lessons_done - a.lessons_done || (a.id < b.id ? 1 : -1),
};

/**
 * The server's rules: search, language, level and country contained (any case), price range
 * inclusive (`price` = at most), then the order (rating as given when none).
 */
export function filterTeachers(teachers: readonly Teacher[], query: URLSearchParams, skip: string[] = []): Teacher[] {
  const get = (name: string) => (skip.includes(name) ? null : query.get(name));
  const q = get('q');
  const language = get('language')?.toLowerCase();
  const level = get('level')?.toLowerCase();
  const country = get('country')?.toLowerCase();
  const max = Math.min(Number(get('price') || Infinity), Number(get('price_max') || Infinity));
  const min = Number(get('price_min') || -Infinity);
  const found = teachers.filter(
    (t) =>
      (!q || matchesSearch(t, q)) &&
      (!language || t.languages.some((l) => l.toLowerCase() === language)) &&
      (!level || t.levels.some((l) => l.toLowerCase() === level)) &&
      (!country || t.country?.toLowerCase() === country) &&
      t.price_per_hour <= max &&
      t.price_per_hour >= min,
  );
  const order = ORDERS[query.get('sort') ?? ''];
  return order ? found.sort(order) : found;
}

export function facetsOf(teachers: readonly Teacher[], query = new URLSearchParams()): Facets {
  const levels = new Set(teachers.flatMap((t) => t.levels));
  const languages = [...new Set(teachers.flatMap((t) => t.languages))].sort();
  const presentLevels = LEVELS.filter((level) => levels.has(level));
  const withoutLanguage = filterTeachers(teachers, query, ['language']);
  const withoutLevel = filterTeachers(teachers, query, ['level']);
  const countries = [...new Set(teachers.flatMap((t) => (t.country === null ? [] : [t.country])))].sort();
  const withoutCountry = filterTeachers(teachers, query, ['country']);
  return {
    languages,
    levels: presentLevels,
    countries,
    prices: [...new Set(teachers.map((t) => t.price_per_hour))].sort((a, b) => a - b),
    counts: {
      languages: Object.fromEntries(languages.map((l) => [l, withoutLanguage.filter((t) => t.languages.includes(l)).length])),
      levels: Object.fromEntries(presentLevels.map((l) => [l, withoutLevel.filter((t) => t.levels.includes(l)).length])),
      countries: Object.fromEntries(countries.map((c) => [c, withoutCountry.filter((t) => t.country === c).length])),
    },
    total: filterTeachers(teachers, query).length,
  };
}

/** MSW handlers that serve the real catalogue the way GET /api/teachers* does. */
/** GET /api/teachers/:id/reviews's answer for a fixture teacher: its reviews (imported), newest or lowest first, 10 a page. */
export function reviewsPageOf(teacher: Teacher, query = new URLSearchParams()) {
  const sort = query.get('sort') === 'lowest' ? 'lowest' : 'newest';
  const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
  const all = teacher.reviews.map((r) => ({ kind: 'imported' as const, ...r, date: null, language: null, reply: null }));
  if (sort === 'lowest') all.sort((a, b) => a.reviewer_rating - b.reviewer_rating);
  return {
    teacherId: teacher.id,
    rating: teacher.rating,
    total: all.length,
    sort,
    page,
    pages: Math.max(1, Math.ceil(all.length / 10)),
    items: all.slice((page - 1) * 10, page * 10),
  };
}

export function catalogueHandlers(teachers: readonly Teacher[] = catalogueOrder(loadTeachers())) {
  const requests: CatalogueRequests = { pages: [], facets: [] };
  const handlers = [
    http.get(apiUrl('/teachers/facets'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      requests.facets.push(query);
      return HttpResponse.json(facetsOf(teachers, query));
    }),
    // a teacher's reviews page as the server pages them (decision 112): 10 a page, the card's reviews
    http.get(apiUrl('/teachers/:id/reviews'), ({ params, request }) => {
      const teacher = teachers.find((t) => t.id === params.id);
      if (!teacher) return HttpResponse.json({ error: { code: 'NOT_FOUND', message: 'Teacher not found' } }, { status: 404 });
      return HttpResponse.json(reviewsPageOf(teacher, new URL(request.url).searchParams));
    }),
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
