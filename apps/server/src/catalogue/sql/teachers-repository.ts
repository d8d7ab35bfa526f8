import type { Sort, Stats, Teacher } from '@learnlingo/contract';
import { languageByOwnName } from '../model/language-names.js';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { catalogueVersion, teacher, teacherCard, teacherLanguage, teacherName, teacherSearch, teacherWord } from '../../db/schema.js';
import { CatalogueCounts } from '../memory/catalogue-counts.js';
import type { CursorPosition, SearchCounted } from '../model/cursor.js';
import { SearchIndexBuilder, type NameMatch, type SearchIndex } from '../memory/search-index.js';
import { afterOperator, SORT_ORDERS, startPosition, type SortOrder } from '../model/sort-orders.js';
import { teacherCardJson, teacherFields, toTeacher, type TeacherJsonRow, type TeacherRow } from '../model/teacher-row.js';
import {
  facetOf,
  tagColumnList,
  tagCondition,
  TAG_COLUMNS,
  TAG_FILTERS,
  type CountFilters,
  type TagFacet,
  type TagFilter,
  type TagRow,
} from '../model/registry.js';

/**
 * A list's filters as the statements take them: each tag filter (registry.ts) in the
 * catalogue's spelling, the price range inclusive (no bound: ±Infinity), `q` trimmed and
 * non-empty when present.
 */
export type ListFilters = CountFilters & { q?: string | undefined };

/** The tag filters but language, which has its own table (teacher_language) and branch. */
const OTHER_TAGS = TAG_FILTERS.filter((filter) => filter !== 'language');

/** One page to find: its filters, where it starts, how many rows. */
interface ListQuery {
  filters: ListFilters;
  after: CursorPosition | null;
  /** rows wanted: the page size plus one, to know whether there are more */
  rows: number;
}

/** One list call, in the order of `sort`. */
interface ListRequest extends ListQuery {
  sort: Sort;
}

/**
 * Calls gathered over one turn of the event loop and handed to `run` together (one
 * statement for many calls); each call's promise settles as `run`'s promise at its index.
 */
function perTurn<T, R>(run: (items: T[]) => Promise<R>[]): (item: T) => Promise<R> {
  let waiting: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (waiting.length === 0) {
        setImmediate(() => {
          const batch = waiting;
          waiting = [];
          let answers: Promise<R>[];
          try {
            answers = run(batch.map((call) => call.item));
          } catch (error) {
            answers = batch.map(() => Promise.reject(error));
          }
          answers.forEach((answer, i) => {
            const call = batch[i] as (typeof batch)[number];
            answer.then(call.resolve, call.reject);
          });
        });
      }
      waiting.push({ item, resolve, reject });
    });
}

/**
 * How many list calls share one statement. One statement runs its pages one after another
 * in one backend: PGlite has a single connection anyway, so it takes everything waiting.
 * On PostgreSQL, with each page now a few tens of microseconds (decision 011, addendum 2),
 * batches of 16 cost the server and PostgreSQL ~8 % less CPU per request than batches of 4
 * at the same throughput and p99 (bench/api.mjs distinct queries; before the cards and
 * prepared statements, batches above 4 serialised slow pages: 64 gave p99 88 ms).
 */
const MAX_BATCH = { pglite: 64, postgres: 16 } as const;

const dialect = new PgDialect();
const orderBy = (order: SortOrder, column: string, id: string) =>
  sql.raw(`${column} ${order.direction}, ${id} ${order.direction}`);

/** A teacher's JSON for a page row `ids`: its card, or built on the spot when it has none. */
/**
 * The hidden teachers' ids (decision 107), once per statement (an InitPlan on the partial
 * index teacher_hidden_idx): the list read from `teacher` skips them on the index tuple, so
 * its scan stays index-only. They are a handful; the other reads have no rows for them.
 */
const hiddenIds = sql`array(select h.id from ${teacher} h where h.hidden)`;

const cardJson = sql`coalesce(card.json, (select ${teacherCardJson} from ${teacher} "teacher" where "teacher"."id" = ids.id))`;

/**
 * The price range as a condition on `alias`, in a page read in `order`'s index. A generic
 * plan sees `price >= $a and price <= $b` on one column as a range and estimates it at
 * 0.5 % of the rows, whatever the values; in an order by another column that estimate made
 * the planner pick the price index and sort every match (a bitmap scan, then a Sort).
 * There the lower bound is written so it is not a range (`price + 0`): it is checked on the
 * index tuple, and the upper bound stays the index condition it always was. The price
 * orders keep both bounds as their index range.
 */
const priceRangeOf = (order: SortOrder, alias: string, min: string, max: string) =>
  order.column === 'price_per_hour'
    ? sql.raw(`${alias}.price_per_hour >= ${min} and ${alias}.price_per_hour <= ${max}`)
    : sql.raw(`${alias}.price_per_hour <= ${max} and ${alias}.price_per_hour + 0 >= ${min}`);

/**
 * The list statement's parameters by name, in their order, with their SQL types: each
 * travels as an array (one element per call) and becomes the column of `p` of its name —
 * every tag filter of the registry, the price range, the cursor and the rows wanted.
 */
export const listParams = (order: SortOrder): [string, string][] => [
  ...TAG_FILTERS.map((filter): [string, string] => [filter, 'text']),
  ['price_min', 'float8'],
  ['price_max', 'float8'],
  ['after_k', order.cursorType],
  ['after_id', 'text'],
  ['lim', 'int'],
];

/**
 * The list statement of one order (no search). All list calls of that order that arrive in
 * the same turn of the event loop become ONE statement and one round trip: their parameters
 * travel as arrays (listParams, one element per call), each set becomes a row of `p`, and a
 * LATERAL subquery runs that set's keyset page as an index-only scan in the order's index
 * (SORT_ORDERS; see decision 011): on the teacher_language index when the call filters by
 * language (only that language's teachers are read), on the teacher index when it does
 * not. Each branch carries a condition on `p` alone, which PostgreSQL checks once per call
 * before scanning (a one-time filter), so only one branch runs. Absent filters are neutral
 * values, so every part stays an index condition or an index-tuple filter (the covering
 * indexes carry every filter column): no level → the empty array (contained in every
 * array), no country → '' (checked once), no price bound → ±Infinity, no
 * cursor → (the order's start, ''). Each teacher's JSON comes ready-made from teacher_card,
 * by primary key; a teacher without a card (which the catalogue writer never leaves) is
 * built on the spot instead of dropping out of the page — COALESCE runs that subquery only
 * then. The text never varies, so PostgreSQL prepares it once per connection.
 */
function listStatement(order: SortOrder): string {
  const col = sql.raw(order.column);
  const after = sql.raw(afterOperator(order));
  const priceRange = (alias: string) => priceRangeOf(order, alias, 'p.price_min', 'p.price_max');
  // the other tag filters, each on its p column ('' = any)
  const tags = (alias: string) => sql.raw(OTHER_TAGS.map((filter) => `and ${tagCondition(filter, alias, `p.${filter}`)}`).join('\n          '));
  const params = listParams(order);
  return dialect.sqlToQuery(sql`select p.i::int as i, ids.k, ids.id, ${cardJson} as json
    from unnest(${sql.raw(params.map(([, type], i) => `$${i + 1}::${type}[]`).join(', '))})
      with ordinality as p(${sql.raw(params.map(([name]) => name).join(', '))}, i)
    cross join lateral (
      (select page.${col} as k, page.id from ${teacher} page
        where p.language = ''
          ${tags('page')}
          and ${priceRange('page')}
          and (page.${col}, page.id) ${after} (p.after_k, p.after_id)
          and page.id <> all(${hiddenIds})
        order by ${orderBy(order, `page.${order.column}`, 'page.id')}
        limit p.lim)
      union all
      (select spoken.${col}, spoken.teacher_id from ${teacherLanguage} spoken
        where p.language <> '' and spoken.language = p.language
          ${tags('spoken')}
          and ${priceRange('spoken')}
          and (spoken.${col}, spoken.teacher_id) ${after} (p.after_k, p.after_id)
        order by ${orderBy(order, `spoken.${order.column}`, 'spoken.teacher_id')}
        limit p.lim)
    ) ids
    left join ${teacherCard} card on card.teacher_id = ids.id
    order by p.i, ${orderBy(order, 'ids.k', 'ids.id')}`).sql;
}

/** Each order's list statement (those an index serves), built once. */
export const LIST_STATEMENTS = Object.fromEntries(
  Object.entries(SORT_ORDERS)
    .filter(([, order]) => order.indexes !== null)
    .map(([sort, order]) => [sort, listStatement(order)]),
) as Partial<Record<Sort, string>>;

/** LIST_STATEMENTS' parameters for these calls. */
function listStatementParams(order: SortOrder, requests: readonly ListQuery[]): unknown[] {
  return [
    ...TAG_FILTERS.map((filter) => requests.map((r) => r.filters[filter] ?? '')),
    requests.map((r) => r.filters.min),
    requests.map((r) => r.filters.max),
    requests.map((r) => (r.after ?? startPosition(order, r.filters)).value),
    requests.map((r) => (r.after ?? startPosition(order, r.filters)).id),
    requests.map((r) => r.rows),
  ];
}

/*
 * Search (decision 040). The text is matched two ways, both indexed on teacher_search: its
 * words as prefixes in the full-text document (accents and case gone, so "chloe" finds
 * Chloé and "pronun" finds pronunciation), and the whole text by trigram word similarity
 * with the name (pg_trgm's `<%`, so "schmit" finds Schmidt). The normalised text and the
 * tsquery are scalar subqueries: computed once per execution (InitPlans) and usable as
 * index keys. Relevance: how close the text is to the teacher's name (word similarity), so
 * name matches come first; teachers found by their text alone tie and follow by id. (ts_rank
 * over the documents cost ~7x the whole statement for a common word: bench/plans.mjs.)
 */
/**
 * The search statements' parameters by name, in their order (searchParams gives them): the
 * text, its words, every tag filter of the registry ('' = any), the price range, the
 * cursor and the rows wanted. A statement names them (param), never by position.
 */
export const SEARCH_PARAMS = ['q', 'words', ...TAG_FILTERS, 'price_min', 'price_max', 'after_k', 'after_id', 'rows'];
type SearchParam = 'q' | 'words' | TagFilter | 'price_min' | 'price_max' | 'after_k' | 'after_id' | 'rows';
/** A search parameter by name, cast to its type: `$n::type`. */
function param(name: SearchParam, type = 'text'): string {
  const at = SEARCH_PARAMS.indexOf(name);
  if (at < 0) throw new Error(`no search parameter ${name}`);
  return `$${at + 1}::${type}`;
}
const P = (name: SearchParam, type?: string) => sql.raw(param(name, type));

const searchText = sql`(select lower(unaccent(${P('q')})))`;
/** What tsquery's syntax is made of: quotes, escapes, operators, weights and prefixes, spaces. */
const TSQUERY_SYNTAX = sql.raw("E'\\'\\\\:&|!()<>* \\t\\n\\r'");
/*
 * The tsquery of `words`, the search's words (searchWords): each word without accents and in
 * lower case, then stripped of every character tsquery syntax gives a meaning to — unaccent
 * turns some letters into them (ʼ → ', ŉ → 'n, ː → :, ⑴ → (1)), which made to_tsquery fail
 * with a syntax error — all required, a word of 3 characters or more as a prefix.
 *
 * A word of 3 letters or more that no document word starts with (teacher_word, the
 * documents' distinct words) is widened to the words like it (decision 108): pg_trgm
 * similarity at least WORD_SIMILARITY, the WORD_ALTERNATIVES closest, so "portugese" is
 * `portugese:* | portuguese | portugal`; "ph" and "f" count as one sound there, so "sofia"
 * finds sophia (0.3 similar as letters). A word some document has is never widened: each
 * word matches either exactly in every document or loosely in every document, so exact
 * matches never share a query with loose ones. parseTerms reads the alternatives, so
 * SearchIndex answers a widened search as any other.
 */
const WORD_SIMILARITY = sql.raw('0.4');
const WORD_ALTERNATIVES = sql.raw('5');
const searchQuery = sql`(select to_tsquery('simple', coalesce(string_agg(t.term, ' & ' order by t.n), ''))
  from (select t.n, case
      when t.word !~ '^[[:alpha:]]{3,}$'
        or exists (select 1 from ${teacherWord} hit where hit.word like t.word || '%')
        then t.word || t.suffix
      else coalesce((select '(' || t.word || t.suffix || ' | ' || string_agg(v.word, ' | ' order by v.n) || ')'
          from (select v.word, row_number() over (order by similarity(v.word, t.word) desc, v.word) as n
            from ${teacherWord} v where v.word % t.word
              and greatest(similarity(v.word, t.word), similarity(replace(v.word, 'ph', 'f'), replace(t.word, 'ph', 'f'))) >= ${WORD_SIMILARITY}
            order by similarity(v.word, t.word) desc, v.word limit ${WORD_ALTERNATIVES}) v),
        t.word || t.suffix) end as term
    from (select translate(lower(unaccent(w.word)), ${TSQUERY_SYNTAX}, '') as word,
        case when char_length(w.word) >= 3 then ':*' else '' end as suffix, w.n
      from unnest(string_to_array(${P('words')}, ' ')) with ordinality as w(word, n)) t
    where t.word <> '') t)`;
/*
 * `name_text %> text` is `text <% name_text` written as the trigram index's own condition:
 * PostgreSQL then sees that the OR is exactly what the BitmapOr of the two indexes found
 * and checks it only where an index asked (the trigram matches), instead of re-evaluating
 * the whole OR as a Filter on every match — 15–20 % of a common word's statement (CPU time
 * on 100,000 teachers, docs/benchmarks.md).
 */
const searchMatch = sql`(s.document @@ ${searchQuery} or s.name_text %> ${searchText})`;
const scoreOf = (name: SQL) => sql`word_similarity(${searchText}, ${name})::float8`;
const searchScore = scoreOf(sql`s.name_text`);
/** The tag filters' conditions on `alias` (each filter's parameter, '' = any), these filters only. */
const tagConditions = (alias: string, filters: readonly TagFilter[] = TAG_FILTERS) =>
  sql.raw(filters.map((filter) => `and ${tagCondition(filter, alias, param(filter))}`).join(' '));
/** The price range on `alias`. */
const priceConditions = (alias: string) =>
  sql.raw(`and ${alias}.price_per_hour >= ${param('price_min', 'float8')} and ${alias}.price_per_hour <= ${param('price_max', 'float8')}`);
/** Every filter (the tags, the price range), or the price range alone, on `s` (teacher_search, or rows with its columns) */
const searchFilters = (tags: boolean) => sql`${tags ? tagConditions('s') : sql``} ${priceConditions('s')}`;

/**
 * One search page in one order, with the total: the matches are found once (a bitmap of
 * the two indexes), counted, and the page is the first `rows` after the cursor (`after_k`, `after_id`) in
 * the order — a top-N sort of the matches, never of the catalogue. The row with a null id
 * carries the total when the page is empty.
 */
function searchStatement(order: SortOrder): string {
  const after = sql.raw(afterOperator(order));
  /*
   * Relevance scores only the name matches (found by the trigram index, a few rows): the
   * teachers found by their text alone score 0 and are the document matches minus those
   * (an anti-join on a small hashed set), so a common word costs what it costs in any
   * other order instead of a similarity per match. A name match scores its word
   * similarity, at least pg_trgm's threshold (0.6), so it always comes first.
   */
  const matched =
    order.column === 'score'
      ? sql`name_hits as materialized (
      select s.teacher_id as id, ${searchScore} as k from ${teacherSearch} s
      where ${searchText} <% s.name_text ${searchFilters(true)}
    ),
    matched as materialized (
      select id, k from name_hits
      union all
      select s.teacher_id, 0::float8 from ${teacherSearch} s
      where s.document @@ ${searchQuery} ${searchFilters(true)}
        and s.teacher_id not in (select id from name_hits)
    )`
      : sql`matched as materialized (
      select s.teacher_id as id, ${sql.raw(`s.${order.column}`)} as k from ${teacherSearch} s
      where ${searchMatch} ${searchFilters(true)}
    )`;
  // what a walk of the following pages would look for (searchWalkStatement)
  const walkable = order.column === 'score' ? sql`(count(*) filter (where k = 0))::int` : sql`count(*)::int`;
  return dialect.sqlToQuery(sql`with ${matched}
    select c.total, c.walkable, ids.k, ids.id, case when ids.id is null then null else ${cardJson} end as json
    from (select count(*)::int as total, ${walkable} as walkable from matched) c
    left join lateral (
      select m.k, m.id from matched m
      where (m.k, m.id) ${after} (${P('after_k', order.cursorType)}, ${P('after_id')})
      order by ${orderBy(order, 'm.k', 'm.id')}
      limit ${P('rows', 'int')}
    ) ids on true
    left join ${teacherCard} card on card.teacher_id = ids.id
    order by ${orderBy(order, 'ids.k', 'ids.id')}`).sql;
}

/** Each order's search statement, built once. */
export const SEARCH_STATEMENTS = Object.fromEntries(
  Object.entries(SORT_ORDERS).map(([sort, order]) => [sort, searchStatement(order)]),
) as Record<Sort, string>;

/**
 * A following page of a common search (decision 042): its total is known from the cursor,
 * so nothing needs counting, and when the matches are common it is cheaper to read the
 * order as a page without a search reads it — the order's index, in order, from the cursor
 * on (teacher, or teacher_language with a language) — and test each teacher for the search
 * (its teacher_search row by primary key) until the page is full, than to find, read and
 * sort every match. With a match density d among the filtered teachers a page of n rows
 * reads about n / d of them; the repository takes this statement only when that is small
 * (WALK_COST). The parameters are SEARCH_STATEMENTS' (SEARCH_PARAMS: the text, its words,
 * the tag filters, the price range, the cursor, the rows).
 *
 * Relevance: past the name matches (score 0, the cursor's value 0) the order is the id,
 * descending: the walk reads teacher_search backwards by primary key and keeps the
 * document matches that are not name matches — those were listed before. (`is true`
 * keeps the full-text condition off its index: a generic plan cannot see that the
 * matches are common and would otherwise find and sort all of them.)
 */
function searchWalkStatement(order: SortOrder, fromTop = false): string {
  if (order.indexes === null) {
    return dialect.sqlToQuery(sql`select 0::float8 as k, ids.id, ${cardJson} as json
      from (select s.teacher_id as id from ${teacherSearch} s
        where ${P('after_k', 'float8')} = 0 and ${fromTop ? sql`${P('after_id')} = '' and s.teacher_id <= (select max(top.teacher_id) from ${teacherSearch} top)` : sql`s.teacher_id < ${P('after_id')}`}
          and (s.document @@ ${searchQuery}) is true and not (s.name_text %> ${searchText})
          ${searchFilters(true)}
        order by s.teacher_id desc
        limit ${P('rows', 'int')}) ids
      left join ${teacherCard} card on card.teacher_id = ids.id
      order by ids.id desc`).sql;
  }
  const col = sql.raw(order.column);
  const after = sql.raw(afterOperator(order));
  const cursor = sql.raw(`(${param('after_k', order.cursorType)}, ${param('after_id')})`);
  const matches = (id: string) =>
    sql`(select ${searchMatch} from ${teacherSearch} s where s.teacher_id = ${sql.raw(id)})`;
  return dialect.sqlToQuery(sql`select ids.k, ids.id, ${cardJson} as json
    from (
      (select page.${col} as k, page.id from ${teacher} page
        where ${P('language')} = ''
          ${tagConditions('page', OTHER_TAGS)}
          and ${priceRangeOf(order, 'page', param('price_min', 'float8'), param('price_max', 'float8'))}
          and (page.${col}, page.id) ${after} ${cursor}
          and ${matches('page.id')}
        order by ${orderBy(order, `page.${order.column}`, 'page.id')}
        limit ${P('rows', 'int')})
      union all
      (select spoken.${col}, spoken.teacher_id from ${teacherLanguage} spoken
        where ${P('language')} <> '' and spoken.language = ${P('language')}
          ${tagConditions('spoken', OTHER_TAGS)}
          and ${priceRangeOf(order, 'spoken', param('price_min', 'float8'), param('price_max', 'float8'))}
          and (spoken.${col}, spoken.teacher_id) ${after} ${cursor}
          and ${matches('spoken.teacher_id')}
        order by ${orderBy(order, `spoken.${order.column}`, 'spoken.teacher_id')}
        limit ${P('rows', 'int')})
    ) ids
    left join ${teacherCard} card on card.teacher_id = ids.id
    order by ${orderBy(order, 'ids.k', 'ids.id')}`).sql;
}

/** Each order's walk statement (see searchWalkStatement), built once. */
export const SEARCH_WALK_STATEMENTS = Object.fromEntries(
  Object.entries(SORT_ORDERS).map(([sort, order]) => [sort, searchWalkStatement(order)]),
) as Record<Sort, string>;

/**
 * A first relevance page past its name matches: the walk by id from the top (the cursor
 * must be (0, '')), for the rows the name matches did not fill (decision 094). The top is
 * the greatest id, not "no bound": without a bound on the id a generic plan reads the
 * whole table and sorts it (list-plan.test.ts).
 */
export const SEARCH_WALK_TOP_STATEMENT = searchWalkStatement(SORT_ORDERS.relevance, true);

/**
 * A following page of a relevance search still among its name matches (the cursor's score
 * above 0), its total known from the cursor: the name matches alone, each scored once (the
 * CTE), ordered after the cursor — not the document matches, which all come after them. When fewer than
 * the rows asked come back the page reaches past the name matches, and the search statement
 * answers it instead. SEARCH_STATEMENTS' parameters.
 */
export const SEARCH_NAME_PAGE_STATEMENT = dialect.sqlToQuery(sql`with name_hits as materialized (
    select s.teacher_id as id, ${searchScore} as k from ${teacherSearch} s
    where ${searchText} <% s.name_text ${searchFilters(true)}
      and ${P('words')} is not null -- the tsquery, unused: a search's statements take the same parameters
  )
  select ids.k, ids.id, ${cardJson} as json
  from (select h.k, h.id from name_hits h
    where (h.k, h.id) < (${P('after_k', 'float8')}, ${P('after_id')})
    order by h.k desc, h.id desc
    limit ${P('rows', 'int')}) ids
  left join ${teacherCard} card on card.teacher_id = ids.id
  order by ids.k desc, ids.id desc`).sql;

/**
 * A search's name matches (decisions 094, 095): every distinct name like the text (pg_trgm's
 * word similarity, teacher_name's trigram index) with its score, the relevance of each
 * teacher carrying it — SearchIndex knows who they are, so a name shared by thousands of
 * teachers is one row here — and the search's words as PostgreSQL normalises them (the
 * tsquery's text, for SearchIndex). A row per name (with the terms; one row of nulls and the
 * terms when none is like it; rows, not arrays: the drivers read rows faster). Parameters:
 * $1 the text, $2 its words (searchWords).
 */
export const NAME_MATCHES_STATEMENT = dialect.sqlToQuery(sql`select t.terms, n.name_text as name, ${scoreOf(sql`n.name_text`)} as score
  from (select ${searchQuery}::text as terms) t
  left join ${teacherName} n on n.name_text %> ${searchText}`).sql;

/** Teachers' cards by id, in no order (each as the list's statements give it). Parameter: $1 the ids. */
export const CARDS_STATEMENT = dialect.sqlToQuery(sql`select ids.id, ${cardJson} as json
  from unnest($1::text[]) ids(id) left join ${teacherCard} card on card.teacher_id = ids.id`).sql;

/**
 * One visible teacher as the API's JSON text, by id: its card (what the list serves), or
 * built on the spot when it has none — the by-id read of GET /api/teachers/:id without a
 * row of twenty columns to parse, its reviews' JSON to parse, validate and stringify again
 * (issue 29). No row for a hidden teacher, a draft or an unknown id. Parameter: $1 the id.
 */
export const TEACHER_JSON_STATEMENT = dialect.sqlToQuery(sql`select coalesce(card.json, ${teacherCardJson}) as json
  from ${teacher} "teacher" left join ${teacherCard} card on card.teacher_id = "teacher"."id"
  where "teacher"."id" = $1 and not "teacher"."hidden"`).sql;

/** What SearchIndex reads, a slice of teachers at a time by id (the event loop and PGlite stay free between). */
export const SEARCH_INDEX_CHUNK_STATEMENT = dialect.sqlToQuery(sql`select s.teacher_id as id, s.name_text as name, ${sql.raw(tagColumnList('s'))},
    s.price_per_hour as price, s.rating, s.lessons_done as lessons, tsvector_to_array(s.document) as lexemes
  from ${teacherSearch} s where s.teacher_id > $1::text order by s.teacher_id limit $2::int`).sql;
const SEARCH_INDEX_CHUNK = 5000;

/**
 * How much more a teacher read by the walk costs than a match read by the search
 * statement (a primary-key probe and a test per teacher, against a bitmap heap row):
 * ~2x measured on 100,000 teachers ("chloe" in rating order: ~5 µs of PostgreSQL CPU per
 * walked teacher, ~2.8 µs per match of the search statement), doubled for safety; the walk
 * is taken when its expected reads times this stay below the matches the statement reads.
 */
const WALK_COST = 4;

/**
 * Whether the walk is cheaper for this following page: it reads about rows × universe /
 * walkable teachers (the matches spread through the order), the search statement at least
 * the walkable matches. Relevance walks only past the name matches (the cursor's score 0).
 */
function walkPays(order: SortOrder, after: CursorPosition, rows: number, walkable: number, universe: number): boolean {
  if ((order.indexes === null && after.value !== 0) || walkable === 0) return false;
  return WALK_COST * rows * universe <= walkable * walkable;
}

/**
 * The facet counts of a search: for each tag filter (registry.ts) each value's matches
 * with the other filters (a language's count ignores the language filter…), and the
 * total. A teacher who lists a language or level twice counts once, as in SearchIndex and
 * CatalogueCounts.
 */
export const SEARCH_FACETS_STATEMENT = dialect.sqlToQuery(sql`with matched as materialized (
    select s.teacher_id as id, ${sql.raw(TAG_FILTERS.map((filter) => `s.${TAG_COLUMNS[filter].column}`).join(', '))} from ${teacherSearch} s
    where ${searchMatch} ${searchFilters(false)}
  )
  ${sql.join(
    TAG_FILTERS.map((filter) => {
      const { column, array } = TAG_COLUMNS[filter];
      const values = array ? `matched.${column}` : `array[matched.${column}]`;
      return sql`select ${sql.raw(`'${filter}'`)} as kind, v as value, count(distinct matched.id)::int as n from matched, unnest(${sql.raw(values)}) v
    where v is not null ${tagConditions('matched', TAG_FILTERS.filter((other) => other !== filter))}
    group by v
  union all
  `;
    }),
  )}select 'total', '', count(*)::int from matched
    where true ${tagConditions('matched')}`).sql;

/**
 * A search text's words, for searchQuery: letters and digits only (NFC), split by
 * anything else, a language's own name read as the catalogue's (language-names.ts), joined
 * by single spaces; '' when it has none. Linear: one split, no backtracking. PostgreSQL
 * removes their accents and builds the tsquery.
 */
export function searchWords(q: string): string {
  return q
    .normalize('NFC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map(languageByOwnName)
    .join(' ');
}

/** SEARCH_PARAMS up to the price range (the cursor and the rows follow), from the filters. */
function searchParams(filters: ListFilters): unknown[] {
  const q = filters.q ?? '';
  return [q, searchWords(q), ...TAG_FILTERS.map((filter) => filters[filter] ?? ''), filters.min, filters.max];
}

/** A search's counts: its total, and how many of them a walk of the order looks for. */
export type SearchCounts = Omit<SearchCounted, 'version'>;

/**
 * What is known of a search before its page is read: its counts (from a cursor, or from
 * SearchIndex), how many teachers the order's walk reads through, and for a relevance page
 * among the name matches those after its cursor (SearchIndex.namePage, up to the rows asked).
 */
export interface KnownSearch {
  counted: SearchCounts;
  universe: number;
  namePage?: CursorPosition[] | undefined;
  /**
   * The first `rows` matches after a position in the order, from memory (SearchIndex.page):
   * for a page whose walk does not pay; null when the index cannot answer it.
   */
  fromIndex?: ((after: CursorPosition, rows: number) => CursorPosition[] | null) | undefined;
  /** the cards kept in memory (CardCache) */
  cards?: CardCache | undefined;
}

/**
 * Teachers' cards (their JSON in a page) by id, the most recently used kept up to a budget of
 * characters (~1.2 KB a card for the generated catalogue; a card with 500 long reviews can
 * be ~1 MB): a page found in memory (SearchIndex) then needs the database only for the cards
 * it has not seen. One per catalogue version (the routes keep it with CatalogueCache.memo).
 */
export class CardCache {
  private readonly cards = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(id: string): string | undefined {
    const card = this.cards.get(id);
    if (card !== undefined) {
      // recently used at the end: the least recently used go first
      this.cards.delete(id);
      this.cards.set(id, card);
    }
    return card;
  }

  set(id: string, json: string): void {
    if (json.length > this.maxChars) return;
    this.remove(id);
    this.cards.set(id, json);
    this.chars += json.length;
    while (this.chars > this.maxChars) this.remove(this.cards.keys().next().value as string);
  }

  /** Forgets one teacher's card (it changed: decision 107). */
  delete(id: string): void {
    this.remove(id);
  }

  private remove(id: string): void {
    const card = this.cards.get(id);
    if (card === undefined) return;
    this.cards.delete(id);
    this.chars -= card.length;
  }

  /** how many cards, and their characters */
  get size(): { cards: number; chars: number } {
    return { cards: this.cards.size, chars: this.chars };
  }
}

/** A search's words and name matches (see NAME_MATCHES_STATEMENT). */
export interface NameMatches {
  /** the tsquery's text as PostgreSQL normalised it (parseTerms reads it) */
  terms: string;
  /** every distinct name like the text, whatever the filters, with its score */
  names: NameMatch[];
}

/** A page's row: its position, and its card (null: the teacher is gone). */
type PageRow = CursorPosition & { json: string | null };

const toJsonRows = (rows: readonly { k: unknown; id: string; json: string }[]): TeacherJsonRow[] =>
  rows.map((row) => ({ value: Number(row.k), id: row.id, json: row.json }));

export interface ListPage {
  /** the page's teachers as a JSON array (text), built by the database in the contract's shape */
  itemsJson: string;
  /** position of the last item when there are more rows after it */
  next: CursorPosition | null;
}

/** Reads of the catalogue. List calls are batched per order and event-loop turn (LIST_STATEMENTS). */
export function createTeachersRepository(db: Database) {
  /** One statement of list calls of one order (LIST_STATEMENTS): each call's rows. */
  async function listBatch(sort: Sort, batch: ListRequest[]): Promise<TeacherJsonRow[][]> {
    const rows = await db.statement<{ i: number; k: number; id: string; json: string }>(
      LIST_STATEMENTS[sort] as string,
      listStatementParams(SORT_ORDERS[sort], batch),
    );
    const byRequest = batch.map((): TeacherJsonRow[] => []);
    for (const row of rows) byRequest[Number(row.i) - 1]?.push({ value: Number(row.k), id: row.id, json: row.json });
    return byRequest;
  }

  /** List calls: those of one turn of the event loop, per order, in statements of up to MAX_BATCH calls. */
  const listRows = perTurn<ListRequest, TeacherJsonRow[]>((requests) => {
    const size = MAX_BATCH[db.engine];
    const bySort = new Map<Sort, number[]>();
    requests.forEach((request, i) => {
      const indexes = bySort.get(request.sort);
      if (indexes) indexes.push(i);
      else bySort.set(request.sort, [i]);
    });
    const answers: Promise<TeacherJsonRow[]>[] = [];
    for (const [sort, indexes] of bySort) {
      for (let from = 0; from < indexes.length; from += size) {
        const chunk = indexes.slice(from, from + size);
        const rows = listBatch(sort, chunk.map((i) => requests[i] as ListRequest));
        chunk.forEach((i, j) => (answers[i] = rows.then((byRequest) => byRequest[j] ?? [])));
      }
    }
    return answers;
  });

  /**
   * Cards read by id (CARDS_STATEMENT): those asked for in one turn of the event loop in one
   * statement, as the list calls. On PGlite each statement costs the server's own thread;
   * pages found in memory after a start or an import ask for a few cards each, many at once.
   */
  const readCards = perTurn<string[], Map<string, string | null>>((reads) => {
    const wanted = [...new Set(reads.flat())];
    const found = db
      .statement<{ id: string; json: string | null }>(CARDS_STATEMENT, [wanted])
      .then((rows) => new Map(rows.map((row) => [row.id, row.json])));
    return reads.map(() => found);
  });

  /**
   * A page of `limit` rows from up to `limit` + 1 (the last only says that a page follows).
   * A row without a card (its teacher gone since SearchIndex was built) is left out of the
   * items, but it still counts as a position: it neither ends the paging nor moves the cursor.
   */
  function toPage(rows: readonly PageRow[], limit: number): ListPage {
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      itemsJson: `[${page.flatMap((row) => (row.json === null ? [] : [row.json])).join(',')}]`,
      next: hasMore && last ? { value: last.value, id: last.id } : null,
    };
  }

  /**
   * These teachers' cards, in the order given (null for a teacher gone): from `cards` when it
   * has them, the others read by id (CARDS_STATEMENT) and kept there.
   */
  async function withCards(positions: readonly CursorPosition[], cards?: CardCache): Promise<PageRow[]> {
    const kept = positions.map(({ id }) => cards?.get(id));
    const missing = positions.flatMap(({ id }, i) => (kept[i] === undefined ? [id] : []));
    const found = missing.length > 0 ? await readCards(missing) : new Map<string, string | null>();
    return positions.map(({ value, id }, i) => {
      const read = kept[i] === undefined ? (found.get(id) ?? null) : null;
      if (read !== null) cards?.set(id, read);
      return { value, id, json: kept[i] ?? read };
    });
  }

  const versionStatement = db.orm
    .select({ version: catalogueVersion.version })
    .from(catalogueVersion)
    .where(eq(catalogueVersion.id, 1))
    .prepare('catalogue_version');

  return {
    /**
     * A page of these teachers (SearchIndex.listPage found them: `limit` and one more to tell
     * whether a page follows), their cards from `cards` or read by id.
     */
    async cards(positions: readonly CursorPosition[], limit: number, cards?: CardCache): Promise<ListPage> {
      // the position past the page only says that a page follows: its card is not read
      const shown = await withCards(positions.slice(0, limit), cards);
      return toPage([...shown, ...positions.slice(limit).map((p) => ({ ...p, json: null }))], limit);
    },

    /** A page without a search, in an order an index serves (not relevance). */
    async list(sort: Sort, filters: ListFilters, after: CursorPosition | null, limit: number): Promise<ListPage> {
      return toPage(await listRows({ sort, filters, after, rows: limit + 1 }), limit);
    },

    /**
     * A page of a search (filters.q set) in any order, and how many teachers match it.
     * `counted`: what the search's first page counted, when the catalogue has not changed
     * since (from the cursor); `universe`: how many teachers the order's walk reads through
     * — those passing the filters (the order's index), or every teacher (relevance, by id).
     * A following page of a common search walks the order (SEARCH_WALK_STATEMENTS); any
     * other page runs the search statement, which counts.
     */
    async search(
      sort: Sort,
      filters: ListFilters,
      after: CursorPosition | null,
      limit: number,
      known: KnownSearch | null = null,
    ): Promise<ListPage & { counts: SearchCounts }> {
      const order = SORT_ORDERS[sort];
      const position = after ?? startPosition(order, filters);
      const params = [...searchParams(filters), position.value, position.id, limit + 1];
      if (known) {
        const counts = { total: known.counted.total, walkable: known.counted.walkable };
        const read = async (statement: string, values = params) => toJsonRows(await db.statement(statement, values));
        /**
         * The `rows` matches after `at` (relevance: past the name matches) without the
         * search statement: from memory (SearchIndex.page, decision 096), else by the walk
         * of the order when it pays; null when neither can.
         */
        const rowsAfter = async (at: CursorPosition, rows: number): Promise<PageRow[] | null> => {
          const found = known.fromIndex?.(at, rows);
          if (found) return withCards(found, known.cards);
          if (!walkPays(order, at, rows, counts.walkable, known.universe)) return null;
          const top = order.column === 'score' && at.id === '';
          return read(top ? SEARCH_WALK_TOP_STATEMENT : SEARCH_WALK_STATEMENTS[sort], [
            ...searchParams(filters),
            at.value,
            at.id,
            rows,
          ]);
        };
        if (known.namePage && order.column === 'score') {
          // a relevance page among the name matches (SearchIndex found those after the
          // cursor): their cards, then the document matches by id from the top
          const names = known.namePage;
          const rest = limit + 1 - names.length;
          if (rest <= 0) return { ...toPage(await withCards(names, known.cards), limit), counts };
          const [found, more] = await Promise.all([withCards(names, known.cards), rowsAfter({ value: 0, id: '' }, rest)]);
          if (more) return { ...toPage([...found, ...more], limit), counts };
        } else if (order.column === 'score' && position.value > 0) {
          const found = await read(SEARCH_NAME_PAGE_STATEMENT);
          if (found.length === limit + 1) return { ...toPage(found, limit), counts };
        } else {
          const found = await rowsAfter(position, limit + 1);
          if (found) return { ...toPage(found, limit), counts };
        }
      }
      const rows = await db.statement<{
        total: number;
        walkable: number;
        k: number | null;
        id: string | null;
        json: string | null;
      }>(SEARCH_STATEMENTS[sort], params);
      const found = rows.flatMap((row) =>
        row.id === null ? [] : [{ value: Number(row.k), id: row.id, json: row.json as string }],
      );
      const counts = { total: Number(rows[0]?.total ?? 0), walkable: Number(rows[0]?.walkable ?? 0) };
      return { ...toPage(found, limit), counts };
    },

    /** A search's words and name matches (NAME_MATCHES_STATEMENT). */
    async nameMatches(filters: ListFilters): Promise<NameMatches | null> {
      const rows = await db.statement<{ terms: string | null; name: string | null; score: number | null }>(
        NAME_MATCHES_STATEMENT,
        searchParams(filters).slice(0, 2),
      );
      const terms = rows[0]?.terms;
      if (terms === undefined || terms === null) return null; // never: the terms are one row at least
      const names = rows.flatMap((row) => (row.name === null ? [] : [{ name: row.name, score: Number(row.score) }]));
      return { terms, names };
    },

    /** Every teacher's search lexemes and filter columns, in slices, as a SearchIndex (decision 094). */
    async searchIndex(): Promise<SearchIndex> {
      const builder = new SearchIndexBuilder();
      let last = '';
      for (;;) {
        const rows = await db.statement<
          TagRow & { id: string; name: string; price: number; rating: number; lessons: number; lexemes: string[] }
        >(SEARCH_INDEX_CHUNK_STATEMENT, [last, SEARCH_INDEX_CHUNK]);
        for (const row of rows) builder.add({ ...row, price: Number(row.price), rating: Number(row.rating), lessons: Number(row.lessons) });
        if (rows.length < SEARCH_INDEX_CHUNK) return builder.build();
        last = (rows.at(-1) as { id: string }).id;
      }
    },

    /** A search's facet counts (see SEARCH_FACETS_STATEMENT). */
    async searchFacets(filters: ListFilters): Promise<Record<TagFacet, Record<string, number>> & { total: number }> {
      const rows = await db.statement<{ kind: string; value: string; n: number }>(
        SEARCH_FACETS_STATEMENT,
        searchParams(filters),
      );
      const out = { total: 0 } as Record<TagFacet, Record<string, number>> & { total: number };
      for (const filter of TAG_FILTERS) out[facetOf(filter)] = {};
      for (const row of rows) {
        if (row.kind === 'total') out.total = Number(row.n);
        else out[facetOf(row.kind as TagFilter)][row.value] = Number(row.n);
      }
      return out;
    },

    /** Every teacher's tag columns (registry.ts) and price, for the counts without a search. */
    async counts(): Promise<CatalogueCounts> {
      const rows = await db.rows<TagRow & { price: number }>(
        sql`select ${sql.raw(tagColumnList('"teacher"'))}, ${teacher.pricePerHour} as price from ${teacher}
            where not ${teacher.hidden}`,
      );
      return new CatalogueCounts(rows.map((row) => ({ ...row, price: Number(row.price) })));
    },

    /** A teacher's picture address: null when they have none (or there is no such teacher). */
    async avatarUrl(id: string): Promise<string | null> {
      const [row] = await db.statement<{ avatar_url: string | null }>('select avatar_url from teacher where id = $1', [id]);
      return row?.avatar_url ?? null;
    },

    /** One visible teacher as the API's JSON text (TEACHER_JSON_STATEMENT); null: hidden, a draft or no such id. */
    async jsonById(id: string): Promise<string | null> {
      const [row] = await db.statement<{ json: string }>(TEACHER_JSON_STATEMENT, [id]);
      return row?.json ?? null;
    },

    /** These teachers (hidden ones too), in no order: the importer's check of what it wrote. */
    async getByIds(ids: string[]): Promise<Teacher[]> {
      if (ids.length === 0) return [];
      const rows = (await db.orm
        .select(teacherFields)
        .from(teacher)
        .where(inArray(teacher.id, ids))) as TeacherRow[];
      return rows.map(toTeacher);
    },

    async stats(): Promise<Stats> {
      const [row] = await db.rows<{ teachers: number; reviews: number; languages: number; lessons: string }>(sql`
        select
          (select count(*)::int from teacher where not hidden) as teachers,
          -- a teacher's visible reviews: as refreshTeacherRating counted them, or (never refreshed) its imported ones (decision 112)
          ((select count(*)::int from review r join teacher h on h.id = r.teacher_id where not h.hidden and h.review_count is null)
            + (select coalesce(sum(review_count), 0)::int from teacher where not hidden)) as reviews,
          (select count(distinct l)::int from teacher, unnest(teacher.languages) as l where not teacher.hidden) as languages,
          (select coalesce(sum(lessons_done), 0)::text from teacher where not hidden) as lessons`);
      return {
        teachers: Number(row?.teachers ?? 0),
        reviews: Number(row?.reviews ?? 0),
        languages: Number(row?.languages ?? 0),
        lessonsDone: Number(row?.lessons ?? 0),
      };
    },

    /** The catalogue's version (bumped by every import and seed); 0 before the first. */
    async version(): Promise<number> {
      const [row] = await versionStatement.execute();
      return row?.version ?? 0;
    },
  };
}

export type TeachersRepository = ReturnType<typeof createTeachersRepository>;
