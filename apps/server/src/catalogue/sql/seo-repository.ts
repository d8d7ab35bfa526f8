import type { Database } from '../../db/client.js';

/** A timestamp column as a W3C datetime to the second, in UTC (what a sitemap's lastmod takes). */
const w3c = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/*
 * Every statement walks the teacher primary key in id order (its collation, the same for
 * the ORDER BY and the > of the keyset), so a sitemap part is a run of consecutive ids.
 */
const COUNT = 'select count(*)::int as n from teacher where not hidden';
const ID_BEFORE = 'select id from teacher where not hidden order by id offset $1 limit 1';
const PAGE = `select id, ${w3c('updated_at')} as lastmod from teacher where id > $1 and not hidden order by id limit $2`;
const UPDATED = `select ${w3c('updated_at')} as lastmod from catalogue_version where id = 1`;

/** What the sitemap reads: teachers' ids and the times they changed, page by page. */
export function createSeoRepository(db: Database) {
  return {
    async teacherCount(): Promise<number> {
      const [row] = await db.statement<{ n: number }>(COUNT, []);
      return Number(row?.n ?? 0);
    },

    /** The id just before position `position` (0-based) in id order; '' for the first. */
    async idBefore(position: number): Promise<string> {
      if (position <= 0) return '';
      const [row] = await db.statement<{ id: string }>(ID_BEFORE, [position - 1]);
      return row?.id ?? '';
    },

    /** Up to `limit` teachers after id `after` ('' = from the start), in id order. */
    teacherPage(after: string, limit: number): Promise<{ id: string; lastmod: string }[]> {
      return db.statement(PAGE, [after, limit]);
    },

    /** When the catalogue last changed (every import and seed bumps it); null before the first. */
    async catalogueUpdated(): Promise<string | null> {
      const [row] = await db.statement<{ lastmod: string }>(UPDATED, []);
      return row?.lastmod ?? null;
    },
  };
}

export type SeoRepository = ReturnType<typeof createSeoRepository>;
