import { LEVELS, type Facets, type Level, type Stats, type Teacher, type TeacherFilters } from '@learnlingo/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { catalogueVersion, teacher, teacherCard, teacherLanguage } from '../../db/schema.js';
import type { CursorPosition } from './cursor.js';
import { teacherCardJson, teacherFields, toTeacher, type TeacherJsonRow, type TeacherRow } from './teacher-row.js';

const ph = sql.placeholder;

/** One page to find: its filters, where it starts, how many rows. */
interface ListQuery {
  filters: TeacherFilters;
  after: CursorPosition | null;
  /** rows wanted: the page size plus one, to know whether there are more */
  rows: number;
}

/** One list call waiting for the next batch. */
interface ListRequest extends ListQuery {
  resolve(rows: TeacherJsonRow[]): void;
  reject(error: unknown): void;
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

/**
 * All list calls that arrive in the same turn of the event loop become ONE statement and
 * one round trip: their parameters travel as arrays ($1…$6, one element per call), each set
 * becomes a row of `p`, and a LATERAL subquery runs that set's keyset page as an index-only
 * scan in list order (see decision 011): on teacher_language_list_idx when the call filters
 * by language (only that language's teachers are read), on teacher_list_order_idx when it
 * does not. Each branch carries a condition on `p` alone, which PostgreSQL checks once per
 * call before scanning (a one-time filter), so only one branch runs. Absent filters are
 * neutral values instead of ORs, so every part stays an index condition or an index-tuple
 * filter: no level → the empty array (contained in every array), no price → +Infinity, no
 * cursor → (+Infinity, ''). Each teacher's JSON comes ready-made from teacher_card, by
 * primary key; a teacher without a card (which the catalogue writer never leaves) is built
 * on the spot instead of dropping out of the page — COALESCE runs that subquery only then.
 * The text never varies, so PostgreSQL prepares it once per connection.
 */
export const LIST_STATEMENT = new PgDialect().sqlToQuery(sql`select p.i::int as i, ids.rating, ids.id,
      coalesce(card.json, (select ${teacherCardJson} from ${teacher} "teacher" where "teacher"."id" = ids.id)) as json
    from unnest($1::text[], $2::text[], $3::float8[], $4::float8[], $5::text[], $6::int[])
      with ordinality as p(language, level, price, after_rating, after_id, lim, i)
    cross join lateral (
      (select page.rating, page.id from ${teacher} page
        where p.language = ''
          and page.levels @> (case when p.level = '' then '{}'::text[] else array[p.level] end)
          and page.price_per_hour <= p.price
          and (page.rating, page.id) < (p.after_rating, p.after_id)
        order by page.rating desc, page.id desc
        limit p.lim)
      union all
      (select spoken.rating, spoken.teacher_id from ${teacherLanguage} spoken
        where p.language <> '' and spoken.language = p.language
          and spoken.levels @> (case when p.level = '' then '{}'::text[] else array[p.level] end)
          and spoken.price_per_hour <= p.price
          and (spoken.rating, spoken.teacher_id) < (p.after_rating, p.after_id)
        order by spoken.rating desc, spoken.teacher_id desc
        limit p.lim)
    ) ids
    left join ${teacherCard} card on card.teacher_id = ids.id
    order by p.i, ids.rating desc, ids.id desc`).sql;

/** LIST_STATEMENT's parameters for these calls. */
function listStatementParams(requests: readonly ListQuery[]): unknown[] {
  return [
    requests.map((r) => r.filters.language ?? ''),
    requests.map((r) => r.filters.level ?? ''),
    requests.map((r) => r.filters.price ?? Number.POSITIVE_INFINITY),
    requests.map((r) => r.after?.rating ?? Number.POSITIVE_INFINITY),
    requests.map((r) => r.after?.id ?? ''),
    requests.map((r) => r.rows),
  ];
}

export interface ListPage {
  /** the page's teachers as a JSON array (text), built by the database in the contract's shape */
  itemsJson: string;
  /** position of the last item when there are more rows after it */
  next: CursorPosition | null;
}

/** Reads of the catalogue. List calls are batched per event-loop turn (LIST_STATEMENT). */
export function createTeachersRepository(db: Database) {
  let pending: ListRequest[] = [];

  async function runBatch(batch: ListRequest[]): Promise<void> {
    try {
      const rows = await db.statement<{ i: number; rating: number; id: string; json: string }>(
        LIST_STATEMENT,
        listStatementParams(batch),
      );
      const byRequest = batch.map((): TeacherJsonRow[] => []);
      for (const row of rows) byRequest[Number(row.i) - 1]?.push(row);
      batch.forEach((request, index) => request.resolve(byRequest[index] ?? []));
    } catch (error) {
      for (const request of batch) request.reject(error);
    }
  }

  function flush(): void {
    const waiting = pending;
    pending = [];
    const size = MAX_BATCH[db.engine];
    for (let from = 0; from < waiting.length; from += size) void runBatch(waiting.slice(from, from + size));
  }

  function listRows(filters: TeacherFilters, after: CursorPosition | null, rows: number): Promise<TeacherJsonRow[]> {
    return new Promise((resolve, reject) => {
      pending.push({ filters, after, rows, resolve, reject });
      if (pending.length === 1) setImmediate(flush);
    });
  }

  const byIdStatement = db.orm
    .select(teacherFields)
    .from(teacher)
    .where(eq(teacher.id, ph('id')))
    .prepare('teacher_by_id');
  const versionStatement = db.orm
    .select({ version: catalogueVersion.version })
    .from(catalogueVersion)
    .where(eq(catalogueVersion.id, 1))
    .prepare('catalogue_version');

  return {
    async list(filters: TeacherFilters, after: CursorPosition | null, limit: number): Promise<ListPage> {
      const rows = await listRows(filters, after, limit + 1);
      const hasMore = rows.length > limit;
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        itemsJson: `[${page.map((row) => row.json).join(',')}]`,
        next: hasMore && last ? { rating: last.rating, id: last.id } : null,
      };
    },

    async getById(id: string): Promise<Teacher | null> {
      const [row] = (await byIdStatement.execute({ id })) as TeacherRow[];
      return row ? toTeacher(row) : null;
    },

    async getByIds(ids: string[]): Promise<Teacher[]> {
      if (ids.length === 0) return [];
      const rows = (await db.orm
        .select(teacherFields)
        .from(teacher)
        .where(inArray(teacher.id, ids))) as TeacherRow[];
      return rows.map(toTeacher);
    },

    async facets(): Promise<Facets> {
      const [languages, levels, prices] = await Promise.all([
        db.rows<{ v: string }>(sql`select distinct unnest(${teacher.languages}) as v from ${teacher}`),
        db.rows<{ v: string }>(sql`select distinct unnest(${teacher.levels}) as v from ${teacher}`),
        db.rows<{ v: number }>(sql`select distinct ${teacher.pricePerHour} as v from ${teacher}`),
      ]);
      const present = new Set(levels.map((r) => r.v));
      return {
        languages: languages.map((r) => r.v).sort((a, b) => a.localeCompare(b, 'en')),
        levels: LEVELS.filter((level: Level) => present.has(level)),
        prices: prices.map((r) => Number(r.v)).sort((a, b) => a - b),
      };
    },

    async stats(): Promise<Stats> {
      const [row] = await db.rows<{ teachers: number; reviews: number; languages: number; lessons: string }>(sql`
        select
          (select count(*)::int from teacher) as teachers,
          (select count(*)::int from review) as reviews,
          (select count(distinct l)::int from teacher, unnest(teacher.languages) as l) as languages,
          (select coalesce(sum(lessons_done), 0)::text from teacher) as lessons`);
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
