import { describe, expect, it } from 'vitest';
import { matchRoutes, type RouteMatch } from 'react-router';
import { routes } from './router';
import { routesFor, routesForRender } from './route-table';

/** What a match says that a page sees: the route's path and handle, the params, the matched paths. */
const seen = (matches: RouteMatch[] | null) =>
  matches?.map(({ route, params, pathname, pathnameBase }) => ({ path: route.path, index: route.index, handle: route.handle, params, pathname, pathnameBase })) ?? null;

describe('routesFor', () => {
  // every route, in other cases and encodings, deeper paths, and paths no route has
  const paths = [
    '/', '/teachers', '/teachers/', '/TEACHERS', '/Teachers/t123', '/%74eachers/t1', '/teachers/t1', '/teachers/t%201',
    '/teachers/t1/book', '/teachers/t1/book/x', '/teachers/a/b/c', '/favorites', '/favorites/x', '/lessons',
    '/bookings/abc', '/bookings', '/account', '/reset-password', '/login', '/register', '/forgot-password',
    '/admin', '/admin/teachers/t1/edit', '/invite', '/teach', '/teach/calendar', '/nope', '/nope/deeper', '/teachersx',
    '//teachers', '/teachers%2Ft1', '/%E0%A4%A', '/İnvite', '/robots.txt', '/a b', '/_', '/~', '/index',
  ];

  it.each(paths)('matches %s as the whole table does', (path) => {
    expect(seen(matchRoutes(routesFor(path), path))).toEqual(seen(matchRoutes(routes, path)));
  });

  it('gives a render the cut table only when its router reads the same first word as the entry', () => {
    expect(routesForRender('/teachers/t1', '/teachers/t1')).toBe(routesFor('/teachers/t1'));
    expect(routesForRender('/teachers/t1', '/TEACHERS/t1')).toBe(routesFor('/teachers/t1'));
    // a path with dot segments, as a direct caller may give it: the URL makes it `/`, the router does not
    for (const raw of ['/admin/..', '/teachers/../book']) {
      expect(routesForRender(new URL(raw, 'http://x').pathname, raw)).toBe(routes);
      const leaf = matchRoutes(routesForRender(new URL(raw, 'http://x').pathname, raw), raw)?.at(-1)?.route.path;
      expect(leaf).toBe(matchRoutes(routes, raw)?.at(-1)?.route.path);
    }
  });

  it('gives a table cut to the path’s first word, the same one for every path of that word', () => {
    const teachers = routesFor('/teachers/t1');
    expect(routesFor('/TEACHERS')).toBe(teachers);
    const children = teachers[0]?.children?.map((child) => child.path ?? (child.index ? '(index)' : '(none)'));
    expect(children).toEqual(['teachers', 'teachers/:id', 'teachers/:id/book', '*']);
    expect(routesFor('/')[0]?.children?.map((child) => child.path ?? '(index)')).toEqual(['(index)', '*']);
    expect(routesFor('/nope')[0]?.children?.map((child) => child.path)).toEqual(['*']);
    // a first segment that is not a plain word: the whole table
    expect(routesFor('/a b')).toBe(routes);
    expect(routesFor('//teachers')).toBe(routes);
  });
});
