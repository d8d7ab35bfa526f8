import type { RouteObject } from 'react-router';
import { routes } from './router';

const PLAIN_WORD = /^[\w.~-]+$/;
/** A route path's first segment when it is a plain word (`teachers`), lower-cased; else undefined (`:id`, `*`, `x?`, none). */
function literalHead(path: string | undefined): string | undefined {
  const head = path?.split('/')[0];
  return head !== undefined && PLAIN_WORD.test(head) ? head.toLowerCase() : undefined;
}

/** The layout's children's first words (`teachers`, `login`…): the tables routesFor cuts. */
const LITERAL_HEADS = new Set(
  routes.flatMap((root) => (root.path === '/' ? (root.children ?? []) : [])).flatMap((child) => literalHead(child.path) ?? []),
);
const tablesByHead = new Map<string, RouteObject[]>();

/**
 * The route table for a path, cut to what could match it: the layout with only the children whose
 * first segment is the path's own (`/teachers/t1` keeps `teachers`, `teachers/:id`,
 * `teachers/:id/book`), those that may match any first segment (`*`, a parameter, no path) and,
 * for `/`, the index. React Router's matchRoutes flattens, ranks and compiles a regular
 * expression for every route of the table it is given, on every call: twice per server render
 * (the entry's and `useRoutes`'), ~10 % of a page's render with the whole table (issue 29). It
 * still does all of the matching and ranking here, on the few routes left. The server's only: in
 * the browser this code would cost the first load more than it saves once per location. The
 * path's first segment is compared as matchRoutes compares it — decoded, whatever its case; one
 * that is not a plain word, or a path that does not start with one `/`, keeps the whole table.
 */
export function routesFor(pathname: string): RouteObject[] {
  if (!pathname.startsWith('/') || pathname.startsWith('//')) return routes;
  const end = pathname.indexOf('/', 1);
  const raw = end === -1 ? pathname.slice(1) : pathname.slice(1, end);
  let head: string;
  try {
    head = decodeURIComponent(raw);
  } catch {
    return routes;
  }
  if (head !== '' && !PLAIN_WORD.test(head)) return routes;
  // `/` itself (the index), a route's word, or (`*`) a word no route has: only the routes that match any word
  const word = head.toLowerCase();
  const key = head === '' ? '' : LITERAL_HEADS.has(word) ? word : '*';
  let table = tablesByHead.get(key);
  if (!table) {
    // (only the layout's children are cut: a root of another path keeps its own)
    table = routes.map((root) => ({
      ...root,
      children: root.path !== '/' ? root.children : root.children?.filter((child) => {
        if (child.index) return key === '';
        const own = literalHead(child.path);
        return own === undefined || own === key;
      }),
    })) as RouteObject[];
    tablesByHead.set(key, table);
  }
  return table;
}

/**
 * The table for a render: the entry matched `path` (the URL parsed, dot segments resolved) while
 * the render's StaticRouter reads the URL as given (`rawPath`). The cut table serves both when
 * both start with the same word — every page the server renders, whose path has no dot segment
 * (ssr.ts pageTarget) — and the whole table otherwise, so that the render matches as it always did.
 */
export function routesForRender(path: string, rawPath: string): RouteObject[] {
  const table = routesFor(path);
  return routesFor(rawPath) === table ? table : routes;
}
