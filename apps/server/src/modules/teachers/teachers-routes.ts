import {
  apiErrorSchema,
  defaultSort,
  type Facets,
  type Sort,
  facetsQuerySchema,
  facetsSchema,
  statsSchema,
  teacherParamsSchema,
  teacherSchema,
  teachersPageSchema,
  teachersQuerySchema,
} from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { HttpError } from '../../plugins/errors.js';
import { directApiOf, type ReadAnswer } from '../../plugins/direct-api.js';
import { CatalogueCache, etagOf, type CachedResponse } from '../../catalogue/index.js';
import { createCursorCodec, cursorScope, type CursorPosition, type SearchCounted } from '../../catalogue/index.js';
import { SORT_ORDERS, startPosition, teacherGone } from '../../catalogue/index.js';
import { parseTerms, type SearchIndex, type SearchTerm } from '../../catalogue/index.js';
import { facetOf, TAG_FILTERS, type TagFacet, type TagFilter } from '../../catalogue/index.js';
import {
  CardCache,
  createFeedRepository,
  createTeachersRepository,
  FEED_CHANNEL,
  LiveCatalogue,
  onFeedWritten,
  type KnownSearch,
  type ListFilters,
  type ListPage,
  type NameMatches,
} from '../../catalogue/index.js';

export interface TeachersRoutesOptions {
  cursorSecret: string;
  /** how often the cache looks at the catalogue version (ms) */
  cacheCheckMs?: number;
  /** how many responses the cache keeps (0: no cache) */
  cacheEntries?: number;
  /** how many characters of teachers' cards are kept in memory (0: none), CardCache; CATALOGUE_CARD_MB */
  cardChars: number;
  /** how often the change feed is read (ms, decision 107); default 200 */
  feedPollMs?: number;
}

/** Browsers and CDNs may reuse catalogue responses briefly; ETags make revalidation cheap. */
const LIST_MAX_AGE = 10;
const SLOW_MAX_AGE = 60;
const EMPTY_PAGE = '{"items":[],"nextCursor":null,"total":0}';

const EMPTY_ETAG = etagOf(EMPTY_PAGE);
/** No filter: every teacher. */
const ANY_PRICE = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };
/** A value no teacher has, as a tag filter: it matches nothing (a name starts with a letter). */
const UNKNOWN_VALUE = '(none)';

/** The query's filters, as they arrive (validated by the contract) */
type FiltersQuery = { [K in TagFilter]?: string | undefined } & {
  q?: string | undefined;
  price?: number | undefined;
  price_min?: number | undefined;
  price_max?: number | undefined;
};

/** A cached answer as the routes send it (and the server's pages read it in process: direct-api.ts). */
function cachedAnswer(entry: CachedResponse, maxAge: number): ReadAnswer {
  return { headers: { etag: entry.etag, 'cache-control': `public, max-age=${maxAge}` }, body: entry.body };
}

/** Serialises through the response schema (so nothing unlisted leaks), once per cache fill. */
const serialise = <S extends z.ZodType>(schema: S, value: z.input<S>) => JSON.stringify(schema.parse(value));

export async function teachersRoutes(app: FastifyInstance, options: TeachersRoutesOptions): Promise<void> {
  const repository = createTeachersRepository(app.db);
  const cursors = createCursorCodec(options.cursorSecret);
  // The version (bulk writes) and the single-teacher changes come from the change feed,
  // read every feedPollMs and right after a write in this process (decision 107); with
  // cacheCheckMs 0 (tests) every request reads it first, so a write shows at once.
  const fresh = options.cacheCheckMs === 0;
  const cache: CatalogueCache = new CatalogueCache(() => live.follower.currentVersion(fresh), {
    checkEveryMs: 0,
    maxEntries: options.cacheEntries ?? 2000,
  });
  const live: LiveCatalogue = new LiveCatalogue(createFeedRepository(app.db), cache, {
    pollMs: options.feedPollMs ?? 200,
    onError: (error) => app.log.warn({ error: error instanceof Error ? error.message : String(error) }, 'change feed not read'),
    /*
     * The search index of the catalogue's documents: one build per catalogue version
     * (decision 094), in the background — undefined until it is built, and meanwhile the
     * search statements answer (they count in the database), so the first searches after a
     * start or an import never wait for the build (2–4 s of 100,000 teachers, decision 095).
     * Single-teacher changes are applied to it in place (decision 107).
     */
    buildIndex: () => repository.searchIndex(),
    // Counts without a search until the index is built: one read per version (decision 041)
    readCounts: () => repository.counts(),
    onIndexBuilt: (index, ms) => app.log.info({ teachers: index.size, ms }, 'search index built'),
    // the next search tries again
    onIndexFailed: (error) =>
      app.log.warn({ error: error instanceof Error ? error.message : String(error) }, 'search index not built'),
  });
  live.follower.start();
  // (a burst of wake-ups shares one read; a failed read: the next poll tries again)
  const wake = () => live.follower.wake();
  const stopWaking = onFeedWritten(app.db, wake);
  // another process's write, on PostgreSQL: its NOTIFY
  // (not awaited: a database that does not answer yet delays no start; the polls follow meanwhile)
  const listening = app.db.listen?.(FEED_CHANNEL, wake);
  live.listening = listening?.then(() => undefined) ?? Promise.resolve();
  app.addHook('onClose', async () => {
    stopWaking();
    live.follower.stop();
    await (await listening)?.();
  });
  app.decorate('catalogueCache', cache);
  app.decorate('catalogueFeed', live);
  // other caches of what the catalogue shows (server-rendered pages) follow the same version
  app.decorate('catalogueVersion', () => live.follower.currentVersion(fresh));

  /** Counts without a search, the languages, levels and prices present (decision 041). */
  const counts = () => live.counts();

  /** The search index (decision 094): undefined until built. */
  const searchIndex = () => live.searchIndex();
  /** The cards of the pages found in memory, kept for this catalogue version (CardCache). */
  const cards = () => cache.memo('cards', async () => new CardCache(options.cardChars));

  app.decorate('searchIndexReady', async () => (await cache.peek('search-index')) !== undefined);

  /**
   * A search's words as PostgreSQL normalises them and its name matches (NAME_MATCHES_STATEMENT),
   * handed with the search index to `use`; null when the index is not built (yet) or the
   * words are not a plain list (parseTerms), which the caller leaves to the search statements.
   */
  async function searchMatches<T>(
    filters: ListFilters,
    use: (index: SearchIndex, terms: SearchTerm[], names: NameMatches) => T,
  ): Promise<T | null> {
    const index = await searchIndex();
    if (index === undefined) return null;
    const names = await repository.nameMatches(filters);
    const terms = names === null ? null : parseTerms(names.terms);
    return names === null || terms === null ? null : use(index, terms, names);
  }

  /**
   * What is known of a search's page before it is read (KnownSearch): its counts — from the
   * cursor when the catalogue has not changed since its first page, else from the index —
   * and for a relevance page among the name matches (a first page, or a cursor still among
   * them) those after the cursor, from the index; the page itself from the index too
   * (decision 096), its cards kept in memory.
   */
  async function knownSearch(
    sort: Sort,
    filters: ListFilters,
    after: CursorPosition | null,
    limit: number,
    counted: SearchCounted | undefined,
    universe: number,
  ): Promise<KnownSearch | null> {
    const order = SORT_ORDERS[sort];
    const amongNames = sort === 'relevance' && (after === null || after.value > 0);
    const { q: _q, ...rest } = filters;
    const kept = await cards();
    const known = await searchMatches(filters, (index, terms, { names }): KnownSearch => ({
      counted: counted ?? index.counts(terms, names, rest, sort === 'relevance'),
      universe,
      namePage: amongNames ? (index.namePage(names, rest, after, limit + 1) ?? undefined) : undefined,
      fromIndex: (position: CursorPosition, rows: number) => index.page(terms, names, rest, order, position, rows),
      cards: kept,
    }));
    return known ?? (counted ? { counted, universe } : null);
  }

  /**
   * The filters in the catalogue's spelling and as the statements take them: each tag
   * filter's value in any case becomes the catalogue's (one no teacher has: UNKNOWN_VALUE,
   * and `known` false — nothing can match), `price` is `price_max` (the smaller of the two
   * wins), an empty `q` is none.
   */
  async function normalise(query: FiltersQuery): Promise<{ filters: ListFilters; known: boolean }> {
    const present = await counts();
    const filters: ListFilters = {
      q: query.q ? query.q : undefined,
      min: query.price_min ?? Number.NEGATIVE_INFINITY,
      max: Math.min(query.price ?? Number.POSITIVE_INFINITY, query.price_max ?? Number.POSITIVE_INFINITY),
    };
    let known = true;
    for (const filter of TAG_FILTERS) {
      const value = query[filter];
      if (value === undefined) continue;
      const spelt = present.spelling(filter, value);
      if (spelt === undefined) known = false;
      filters[filter] = spelt ?? UNKNOWN_VALUE;
    }
    return { filters, known };
  }

  /**
   * The routes' readers: each route answers with its reader's answer, and the server's pages
   * call the same reader in process (direct-api.ts) with the same schema's parsed input.
   */
  const direct = directApiOf(app);

  /** GET /api/teachers */
  const readList = async ({ query }: { query: z.output<typeof teachersQuerySchema> }): Promise<ReadAnswer> => {
    const { cursor, limit } = query;
    const { filters, known } = await normalise(query);
    const sort = query.sort ?? defaultSort({ q: filters.q ?? query.q });
    const scope = known ? cursorScope(sort, filters) : null;
    const after = cursor === undefined || scope === null ? null : cursors.decode(cursor, scope);
    if (cursor !== undefined && after === null && scope !== null) {
      throw new HttpError(400, 'BAD_CURSOR', 'The cursor is not one this server issued for this order and filters', {
        cursor: 'Invalid cursor',
      });
    }
    if (scope === null) {
      // a language (a country) no teacher has: nothing can match (and the index could not stop early)
      return cachedAnswer({ body: EMPTY_PAGE, etag: EMPTY_ETAG }, LIST_MAX_AGE);
    }
    const key = JSON.stringify(['list', scope, cursor ?? null, limit]);
    const entry = await cache.get(key, async () => {
      // The database builds the items' JSON (teacherSchema's shape, asserted by the tests
      // against the contract); Node only adds the cursor and the total. See decision 011.
      const encode = (page: ListPage, counted?: SearchCounted) =>
        page.next ? JSON.stringify(cursors.encode({ ...page.next, counted }, scope)) : 'null';
      if (filters.q !== undefined) {
        // A following page of the same search, the catalogue unchanged: its counts come
        // with the cursor, and a common search walks its order (decision 042).
        // A first page (or one whose cursor predates the catalogue) has its counts from
        // the search index instead (decision 094).
        // what the catalogue is: its version and the feed's position (decision 107)
        const version = await live.state();
        const counted = after?.counted?.version === version ? after.counted : undefined;
        const { q: _q, ...rest } = filters;
        const universe = SORT_ORDERS[sort].indexes ? (await counts()).count(rest) : (await counts()).count(ANY_PRICE);
        const known = await knownSearch(sort, filters, after, limit, counted, universe);
        const page = await repository.search(sort, filters, after, limit, known);
        return `{"items":${page.itemsJson},"nextCursor":${encode(page, { ...page.counts, version })},"total":${page.counts.total}}`;
      }
      // Without a search the total comes from memory, and a query nothing matches (an
      // absent level, a range outside the prices) is answered without the statement: its
      // index scan could not stop early (decision 011, addendum 2).
      const total = (await counts()).count(filters);
      if (total === 0) return EMPTY_PAGE;
      // From memory once the index is built (decision 096): the page's positions, then its
      // cards (those not kept read by id); until then, and for a cursor the index does not
      // know, the list statement.
      const order = SORT_ORDERS[sort];
      const index = await searchIndex();
      const found = index?.listPage(filters, order, after ?? startPosition(order, filters), limit + 1, total);
      const page = found ? await repository.cards(found, limit, await cards()) : await repository.list(sort, filters, after, limit);
      return `{"items":${page.itemsJson},"nextCursor":${encode(page)},"total":${total}}`;
    });
    return cachedAnswer(entry, LIST_MAX_AGE);
  };
  const listSchema = {
    tags: ['teachers'],
    summary: 'A page of the catalogue: searched (q), filtered, in an order (sort), with the total',
    description:
      'Orders: rating (default; rating high to low), price-asc, price-desc, lessons (most lessons done first), ' +
      'relevance (the default with q; only with q). Ties are broken by id. `nextCursor` continues the same query ' +
      'only: a cursor used with another order or other filters is refused (400 BAD_CURSOR). `price` is the ' +
      "original's name for price_max. Language, level and country match whatever their case.",
    querystring: teachersQuerySchema,
    response: { 200: teachersPageSchema, 400: apiErrorSchema },
  };
  direct.serve('/api/teachers', listSchema, readList);

  /** GET /api/teachers/facets */
  const readFacets = async ({ query }: { query: z.output<typeof facetsQuerySchema> }): Promise<ReadAnswer> => {
    const present = await counts();
    const { filters } = await normalise(query);
    const key = JSON.stringify(['facets', cursorScope('', filters)]);
    const entry = await cache.get(key, async () => {
      const { q, ...rest } = filters;
      const found =
        q === undefined
          ? { ...present.facetCounts(rest), total: present.count(rest) }
          : ((await searchMatches(filters, (index, terms, { names }) => index.facets(terms, names, rest, present))) ??
            (await repository.searchFacets(filters)));
      // each facet's values present, each with its count (0 when the query leaves none)
      const counted = Object.fromEntries(
        TAG_FILTERS.map((filter) => [
          facetOf(filter),
          Object.fromEntries(present.values[filter].map((value) => [value, found[facetOf(filter)][value] ?? 0])),
        ]),
      ) as Record<TagFacet, Record<string, number>>;
      // each facet's values present (languages, levels, countries), checked by the schema
      const values = Object.fromEntries(TAG_FILTERS.map((filter) => [facetOf(filter), present.values[filter]]));
      return serialise(facetsSchema, {
        ...(values as Pick<Facets, TagFacet>),
        prices: present.priceSteps,
        counts: counted,
        total: found.total,
      });
    });
    return cachedAnswer(entry, SLOW_MAX_AGE);
  };
  const facetsRouteSchema = {
    tags: ['teachers'],
    summary: 'Languages, levels, countries and price steps present in the catalogue, with counts for a query',
    description:
      "counts: for each language, how many teachers match it with the query's other filters (its level, " +
      'country, price range and search), and for each level and country likewise; total: how many match the whole query.',
    querystring: facetsQuerySchema,
    response: { 200: facetsSchema, 400: apiErrorSchema },
  };
  direct.serve('/api/teachers/facets', facetsRouteSchema, readFacets);

  /** GET /api/teachers/:id */
  const readTeacher = async ({ params }: { params: z.output<typeof teacherParamsSchema> }): Promise<ReadAnswer> => {
    const { id } = params;
    const entry = await cache.get(`teacher:${id}`, async () => {
      // the teacher's card, the JSON the list serves (the same text the by-id read's row made,
      // public-reads.test.ts): no row to parse, validate and stringify per distinct teacher
      const json = await repository.jsonById(id);
      // a teacher who was public and is hidden now is gone (410); a draft or unknown id, 404 (decision 111)
      if (json === null && (await teacherGone(app.db, id))) throw new HttpError(410, 'GONE', 'This teacher no longer teaches on LearnLingo');
      if (json === null) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${id}`);
      return json;
    });
    return cachedAnswer(entry, LIST_MAX_AGE);
  };
  const teacherRouteSchema = {
    tags: ['teachers'],
    summary: 'One teacher with reviews',
    params: teacherParamsSchema,
    response: { 200: teacherSchema, 400: apiErrorSchema, 404: apiErrorSchema, 410: apiErrorSchema },
  };
  direct.serve('/api/teachers/:id', teacherRouteSchema, readTeacher);

  /** GET /api/stats */
  const readStats = async (): Promise<ReadAnswer> =>
    cachedAnswer(await cache.get('stats', async () => serialise(statsSchema, await repository.stats())), SLOW_MAX_AGE);
  const statsRouteSchema = {
    tags: ['teachers'],
    summary: 'Figures for the home page, computed from the catalogue',
    response: { 200: statsSchema },
  };
  direct.serve('/api/stats', statsRouteSchema, readStats);
}

declare module 'fastify' {
  interface FastifyInstance {
    catalogueCache: CatalogueCache;
    /** the catalogue this server keeps in memory, following the change feed (decision 107) */
    catalogueFeed: LiveCatalogue;
    /** the catalogue's version: every change to the catalogue moves it */
    catalogueVersion: () => Promise<number>;
    /** whether the search index of the current catalogue version is built (health reports it) */
    searchIndexReady: () => Promise<boolean>;
  }
}
