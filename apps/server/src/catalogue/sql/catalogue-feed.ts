import type { Database } from '../../db/client.js';
import type { IndexedTeacher } from '../memory/search-index.js';
import { tagColumnList } from '../model/registry.js';

/** What a server reads of the feed at each poll (one statement, one snapshot). */
export interface FeedRead {
  /** catalogue_version: bulk writes move it */
  version: number;
  /** the greatest seq trimmed from the feed */
  trimmed: number;
  /** the greatest seq in the feed (0: none) */
  last: number;
  /** the changes after the position asked, in seq order, up to the limit asked */
  changes: { seq: number; teacherId: string }[];
}

/*
 * The poll: the version row and the feed's rows after a position, by the primary key (a
 * descent of its btree when there is nothing new). bigint as float8: a JS number either way.
 */
const FEED = `select v.version, v.trimmed, v.last, c.seq, c.teacher_id from (select
    coalesce((select version from catalogue_version where id = 1), 0)::float8 as version,
    coalesce((select feed_trimmed from catalogue_version where id = 1), 0)::float8 as trimmed,
    coalesce((select max(seq) from catalogue_change), 0)::float8 as last) v
  left join lateral (select seq::float8 as seq, teacher_id from catalogue_change
    where seq > $1::bigint order by seq limit $2::int) c on true
  order by c.seq`;

/** The changed teachers as the search index reads them (SEARCH_INDEX_CHUNK_STATEMENT's columns); none: hidden or gone. */
const CHANGED = `select s.teacher_id as id, s.name_text as name, ${tagColumnList('s')},
    s.price_per_hour as price, s.rating, s.lessons_done as lessons, tsvector_to_array(s.document) as lexemes
  from teacher_search s where s.teacher_id = any($1::text[])`;

/**
 * Trims the feed of rows older than `olderThanMs`, and records the greatest seq trimmed: a
 * server that has applied less than that cannot catch up from the feed and rebuilds. One
 * statement; concurrent trims keep the greatest. Returns how many rows went.
 */
const TRIM = `with gone as (
    delete from catalogue_change where changed_at < clock_timestamp() - $1::float8 * interval '1 millisecond' returning seq
  ), mark as (
    insert into catalogue_version (id, version, feed_trimmed)
    select 1, 0, max(seq) from gone having count(*) > 0
    on conflict (id) do update set feed_trimmed = greatest(catalogue_version.feed_trimmed, excluded.feed_trimmed)
  )
  select count(*)::int as n from gone`;

/** The statements a server runs to follow the feed whatever it is asked (a poll, a trim). */
export const FEED_STATEMENTS: ReadonlySet<string> = new Set([FEED, TRIM]);

/** How the catalogue's followers (CatalogueFollower) read the feed. */
export function createFeedRepository(db: Database) {
  return {
    async read(after: number, limit: number): Promise<FeedRead> {
      const rows = await db.statement<{ version: number; trimmed: number; last: number; seq: number | null; teacher_id: string | null }>(
        FEED,
        [after, limit],
      );
      const first = rows[0];
      return {
        version: Number(first?.version ?? 0),
        trimmed: Number(first?.trimmed ?? 0),
        last: Number(first?.last ?? 0),
        changes: rows.flatMap((row) => (row.seq === null || row.teacher_id === null ? [] : [{ seq: Number(row.seq), teacherId: row.teacher_id }])),
      };
    },

    /** These teachers as they are now, by id (absent: hidden or gone). */
    async teachers(ids: readonly string[]): Promise<Map<string, IndexedTeacher>> {
      const rows = await db.statement<IndexedTeacher & Record<string, unknown>>(CHANGED, [ids]);
      return new Map(
        rows.map((row) => [row.id, { ...row, price: Number(row.price), rating: Number(row.rating), lessons: Number(row.lessons) }]),
      );
    },

    /** How many of these ids sort before `id` in the database's order of ids. */
    async countBefore(ids: readonly string[], id: string): Promise<number> {
      const [row] = await db.statement<{ n: number }>('select count(*)::int as n from unnest($1::text[]) as u(id) where u.id < $2::text', [
        ids,
        id,
      ]);
      return Number(row?.n ?? 0);
    },

    async trim(olderThanMs: number): Promise<number> {
      const [row] = await db.statement<{ n: number }>(TRIM, [olderThanMs]);
      return Number(row?.n ?? 0);
    },
  };
}

export type FeedRepository = ReturnType<typeof createFeedRepository>;

/** Trims the feed of rows older than `olderThanMs` (see createFeedRepository's trim). */
export function trimCatalogueFeed(db: Database, olderThanMs: number): Promise<number> {
  return createFeedRepository(db).trim(olderThanMs);
}
