import type { TeacherRecord } from '@learnlingo/contract';
import { count, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { catalogueVersion, review, teacher, teacherCard, teacherLanguage, teacherName, teacherSearch, teacherWord } from '../../db/schema.js';
import { TEACHER_API_FIELDS, TEACHER_COLUMN_FIELDS, teacherCardJson } from '../model/teacher-row.js';
import { FIELDS, PRICE_COLUMN, TAG_COLUMNS, TAG_FILTERS } from '../model/registry.js';
import { SORT_ORDERS } from '../model/sort-orders.js';

/*
 * Bulk writes of the catalogue (seed, import): multi-row INSERTs of up to BATCH rows,
 * inside the caller's transaction, never one statement per row. A record is always written
 * whole — the teacher row and its reviews, then every table derived from them (writeListRows):
 * teacher_card (the API's JSON, what the list serves), teacher_language (a row per language
 * with the order and filter columns, what a language-filtered list scans), teacher_search
 * (what a search reads: its text and the order and filter columns), teacher_name (the
 * distinct names) and teacher_word (the documents' words, with how many documents have each)
 * — through insertNewRecords or upsertRecords, so no teacher can be missing from the list or
 * listed as it was before. The order and filter columns the derived tables carry follow from
 * SORT_ORDERS and the registry (LISTED_COLUMNS). A single teacher's update of no searched
 * field re-projects only what it reaches (writeChangedListRows, decision 107's addendum).
 */

const TEACHER_BATCH = 1000;
const REVIEW_BATCH = 5000;

export type IdentifiedRecord = TeacherRecord & { id: string };

/** A record as `teacher` insert values (Drizzle's property names), from the one field list. */
function teacherValues(record: IdentifiedRecord): typeof teacher.$inferInsert {
  return Object.fromEntries(
    TEACHER_COLUMN_FIELDS.map(({ field, key }) => [key, record[field]]),
  ) as unknown as typeof teacher.$inferInsert;
}

function* chunks<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The teacher columns a record fills, in SQL (their names are the API's field names). */
const TEACHER_COLUMNS = sql.raw(TEACHER_COLUMN_FIELDS.map(({ column }) => column.name).join(', '));

/** On conflict: every field but the id from the incoming row, and the time of the change. */
const TEACHER_UPSERT_SET = {
  ...Object.fromEntries(
    TEACHER_COLUMN_FIELDS.filter(({ field }) => field !== 'id').map(({ key, column }) => [key, sql.raw(`excluded.${column.name}`)]),
  ),
  updatedAt: sql`now()`,
};

/** A record as a `teacher` row in the column names (json_populate_recordset): all but its reviews. */
function teacherJson(record: IdentifiedRecord) {
  const { reviews: _reviews, ...row } = record;
  return row;
}

/** Rows of a raw statement, whichever driver runs it. */
export async function rowsOf<T>(tx: Db, query: SQL): Promise<T[]> {
  const result: unknown = await tx.execute(query);
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * Inserts teachers; ones whose id exists are skipped. Returns the ids actually inserted.
 * Each batch is ONE statement with ONE parameter (the batch as JSON, expanded by
 * json_populate_recordset), which is several times faster than thousands of bind
 * parameters, on PGlite especially.
 */
async function insertNewTeachers(tx: Db, records: readonly IdentifiedRecord[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (const batch of chunks(records, TEACHER_BATCH)) {
    const rows = await rowsOf<{ id: string }>(
      tx,
      sql`insert into ${teacher} (${TEACHER_COLUMNS})
          select ${TEACHER_COLUMNS} from json_populate_recordset(null::teacher, ${JSON.stringify(batch.map(teacherJson))}::json)
          on conflict (id) do nothing
          returning id`,
    );
    for (const row of rows) inserted.add(row.id);
  }
  return inserted;
}

/** Inserts or replaces teachers by id. */
async function upsertTeachers(tx: Db, records: readonly IdentifiedRecord[]): Promise<void> {
  for (const batch of chunks(records, TEACHER_BATCH)) {
    await tx
      .insert(teacher)
      .values(batch.map(teacherValues))
      .onConflictDoUpdate({ target: teacher.id, set: TEACHER_UPSERT_SET });
  }
}

/** Replaces the reviews of these teachers with the records' reviews (in their order). */
async function replaceReviews(tx: Db, records: readonly IdentifiedRecord[], deleteFirst: boolean): Promise<void> {
  if (deleteFirst) {
    for (const batch of chunks(records, TEACHER_BATCH)) {
      await tx.delete(review).where(
        inArray(
          review.teacherId,
          batch.map((r) => r.id),
        ),
      );
    }
  }
  const rows = records.flatMap((record) =>
    record.reviews.map((r, position) => ({
      teacher_id: record.id,
      position,
      reviewer_name: r.reviewer_name,
      reviewer_rating: r.reviewer_rating,
      comment: r.comment,
    })),
  );
  for (const batch of chunks(rows, REVIEW_BATCH)) {
    await tx.execute(
      sql`insert into ${review} (teacher_id, position, reviewer_name, reviewer_rating, comment)
          select teacher_id, position, reviewer_name, reviewer_rating, comment
          from json_populate_recordset(null::review, ${JSON.stringify(batch)}::json)`,
    );
  }
}

/**
 * The order and filter columns teacher_search carries (teacher_language: all but the
 * languages, one row per language), spelt as in `teacher`: each order's column (SORT_ORDERS)
 * and each filter's (the registry's tag columns, the price).
 */
const LISTED_COLUMNS = [
  ...new Set([
    ...Object.values(SORT_ORDERS).flatMap((order) => (order.column === 'score' ? [] : [order.column])),
    PRICE_COLUMN,
    ...TAG_FILTERS.map((filter) => TAG_COLUMNS[filter].column),
  ]),
];
const LANGUAGE_ROW_COLUMNS = LISTED_COLUMNS.filter((column) => column !== TAG_COLUMNS.language.column);

/**
 * A teacher's search row from its `teacher` row aliased `t` (migration 0005 backfills with
 * the same expressions): name and text lower-cased and unaccented, the text as a `simple`
 * (unstemmed, any language) full-text document. See decision 040.
 */
const SEARCH_ROW = sql.raw(`t.id, lower(unaccent(t.name || ' ' || t.surname)),
  to_tsvector('simple', lower(unaccent(concat_ws(' ', t.name, t.surname, array_to_string(t.languages, ' '),
    t.lesson_info, array_to_string(t.conditions, ' '), t.experience)))),
  ${LISTED_COLUMNS.map((column) => `t.${column}`).join(', ')}`);

/** What teacher_word keeps of a document's lexemes: words of letters only, 3 or more (decision 108). */
const VOCABULARY_WORD = sql.raw("'^[[:alpha:]]{3,}$'");

/** Each vocabulary word of these teachers' search documents, with how many of them have it. */
const wordsOfDocuments = (idList: SQL) =>
  sql`select l.word, count(*)::int as n from ${teacherSearch} s, unnest(tsvector_to_array(s.document)) as l(word)
      where s.teacher_id = any(${idList}) and l.word ~ ${VOCABULARY_WORD} group by l.word`;

/** The key of the transaction-scoped advisory lock every catalogue writer takes (a constant of this app's own). */
export const CATALOGUE_WRITE_LOCK = sql.raw('950095');

/**
 * (Re)writes what the list and the search read for these teachers, from their rows and
 * reviews as they are now in this transaction: their cards (teacher_card), their rows in
 * teacher_language and teacher_search, and the names in teacher_name. Call it after the
 * teachers and their reviews are written.
 */
export async function writeListRows(tx: Db, ids: readonly string[], { locked = false } = {}): Promise<void> {
  // One writer of the names at a time: one writer's removal of a name it no longer uses
  // cannot miss a teacher another writer is giving that name (decision 095). (`locked`:
  // the caller holds the lock already, decision 107.)
  if (!locked) await tx.execute(sql`select pg_advisory_xact_lock(${CATALOGUE_WRITE_LOCK})`);
  for (const batch of chunks(ids, TEACHER_BATCH)) {
    const idList = sql`${sql.param(batch)}::text[]`;
    const before = await rowsOf<{ name: string }>(
      tx,
      sql`select distinct name_text as name from ${teacherSearch} where teacher_id = any(${idList})`,
    );
    // how many of these documents have each word, before (teacher_word.documents: migration 0021)
    const wordsBefore = await rowsOf<{ word: string; n: number }>(tx, sql`${wordsOfDocuments(idList)}`);
    await tx.execute(
      sql`insert into ${teacherCard} (teacher_id, json)
          select "teacher"."id", ${teacherCardJson} from ${teacher} "teacher"
          where "teacher"."id" = any(${idList}) and not "teacher"."hidden"
          on conflict (teacher_id) do update set json = excluded.json`,
    );
    // a hidden teacher has no list rows at all (decision 107)
    await tx.execute(
      sql`with hidden as (select t.id from ${teacher} t where t.id = any(${idList}) and t.hidden),
            card as (delete from ${teacherCard} c using hidden h where c.teacher_id = h.id)
          delete from ${teacherSearch} s using hidden h where s.teacher_id = h.id`,
    );
    await tx.execute(sql`delete from ${teacherLanguage} where teacher_id = any(${idList})`);
    await tx.execute(
      sql`insert into ${teacherLanguage} (teacher_id, language, ${sql.raw(LANGUAGE_ROW_COLUMNS.join(', '))})
          select distinct t.id, l.language, ${sql.raw(LANGUAGE_ROW_COLUMNS.map((column) => `t.${column}`).join(', '))}
          from ${teacher} t, unnest(t.languages) as l(language)
          where t.id = any(${idList}) and not t.hidden`,
    );
    await tx.execute(
      sql`insert into ${teacherSearch} (teacher_id, name_text, document, ${sql.raw(LISTED_COLUMNS.join(', '))})
          select ${SEARCH_ROW} from ${teacher} t
          where t.id = any(${idList}) and not t.hidden
          on conflict (teacher_id) do update set name_text = excluded.name_text, document = excluded.document,
            ${sql.raw(LISTED_COLUMNS.map((column) => `${column} = excluded.${column}`).join(', '))}`,
    );
    await tx.execute(
      sql`insert into ${teacherName} (name_text)
          select distinct name_text from ${teacherSearch} where teacher_id = any(${idList})
          on conflict (name_text) do nothing`,
    );
    // the words' counts of documents move by what these documents gained and lost (decision
    // 108; counted since decision 107's addendum — checking each word these documents had
    // against the full-text index cost ~10 ms a common word); a word no document has goes
    const touched = await rowsOf<{ word: string; documents: number }>(
      tx,
      sql`with after as (${wordsOfDocuments(idList)}),
            before as (select * from unnest(${sql.param(wordsBefore.map((row) => row.word))}::text[],
              ${sql.param(wordsBefore.map((row) => Number(row.n)))}::int[]) as b(word, n)),
            delta as (select coalesce(a.word, b.word) as word, coalesce(a.n, 0) - coalesce(b.n, 0) as d
              from after a full join before b on a.word = b.word)
          insert into ${teacherWord} (word, documents) select word, d from delta where d <> 0
          on conflict (word) do update set documents = ${teacherWord}.documents + excluded.documents
          returning word, documents`,
    );
    const gone = touched.filter((row) => Number(row.documents) <= 0).map((row) => row.word);
    if (gone.length > 0) {
      await tx.execute(sql`delete from ${teacherWord} where word = any(${sql.param(gone)}::text[]) and documents <= 0`);
    }
    if (before.length > 0) {
      // a renamed (or hidden) teacher's old name, when no one carries it any more; a name
      // these teachers still carry stays (the check costs a trigram index read per name)
      await tx.execute(
        sql`delete from ${teacherName} n where n.name_text = any(${sql.param(before.map((row) => row.name))}::text[])
            and not exists (select 1 from ${teacherSearch} s where s.teacher_id = any(${idList}) and s.name_text = n.name_text)
            and not exists (select 1 from ${teacherSearch} s where s.name_text = n.name_text)`,
      );
    }
  }
}

/**
 * The teacher columns a search row's name and document are made of (the registry's `search`
 * fields; SEARCH_ROW's expressions): a change of one of them changes the teacher's words and
 * maybe its name, which only writeListRows maintains (under the writers' lock). The languages
 * are among them, and they are also teacher_language's row set.
 */
export const SEARCHED_COLUMNS: ReadonlySet<string> = new Set(
  Object.entries(FIELDS).flatMap(([field, roles]) => ((roles as readonly string[]).includes('search') ? [field] : [])),
);

/** The card of the teacher row aliased "teacher", its reviews taken from the card `c` it replaces (the same JSON text). */
const CARD_FROM_PREVIOUS = sql`(select row_to_json(t)::text from (select ${sql.join(
  TEACHER_API_FIELDS.map((field): SQL => (field === 'reviews' ? sql.raw(`c.json::json -> 'reviews' as reviews`) : sql.raw(`"teacher"."${field}"`))),
  sql`, `,
)}) t)`;

/**
 * Re-projects one teacher after an update of these `teacher` columns only (its reviews and
 * its hidden flag unchanged), rewriting in place only what they reach (decision 107's
 * addendum): its card always (every field is on it; its reviews' JSON is taken from the
 * card it replaces, not aggregated again), its teacher_language rows and teacher_search
 * row only when a column they carry changed — each an UPDATE of those columns alone, so
 * teacher_search's row (whose indexes are on the name and the document) can be a HOT update
 * and its full-text and trigram indexes are not touched. One statement, no advisory lock
 * (nothing shared with other teachers is written: no name, no word).
 *
 * Returns false, having written nothing, when a column changed is one of SEARCHED_COLUMNS:
 * the caller re-projects the teacher whole (writeListRows, under the lock). Call it after
 * the teacher's row is updated, in the same transaction, in a statement of its own (whose
 * snapshot sees every write of this teacher committed before this transaction's row lock).
 */
export async function writeChangedListRows(tx: Db, id: string, changed: readonly string[]): Promise<boolean> {
  if (changed.some((column) => SEARCHED_COLUMNS.has(column))) return false;
  const listed = LISTED_COLUMNS.filter((column) => changed.includes(column));
  const inLanguageRows = LANGUAGE_ROW_COLUMNS.filter((column) => listed.includes(column));
  const set = (columns: readonly string[]) => sql.raw(columns.map((column) => `${column} = "teacher".${column}`).join(', '));
  const parts: SQL[] = [
    sql`update ${teacherCard} c set json = ${CARD_FROM_PREVIOUS} from edited "teacher" where c.teacher_id = "teacher"."id"`,
  ];
  if (inLanguageRows.length > 0) {
    parts.push(sql`update ${teacherLanguage} l set ${set(inLanguageRows)} from edited "teacher" where l.teacher_id = "teacher"."id"`);
  }
  if (listed.length > 0) {
    parts.push(sql`update ${teacherSearch} s set ${set(listed)} from edited "teacher" where s.teacher_id = "teacher"."id"`);
  }
  // a hidden teacher has no list rows (decision 107): `edited` is then empty and nothing is written
  const main = parts.pop() as SQL;
  await tx.execute(
    sql`with edited as (select * from ${teacher} where id = ${id} and not hidden)${sql.join(
      parts.map((part, i) => sql`, ${sql.raw(`w${i}`)} as (${part})`),
      sql``,
    )} ${main}`,
  );
  return true;
}

/**
 * Adds the records whose id is new — teacher, reviews and list rows — and leaves existing ids
 * alone. Returns the ids inserted.
 */
export async function insertNewRecords(tx: Db, records: readonly IdentifiedRecord[]): Promise<Set<string>> {
  const inserted = await insertNewTeachers(tx, records);
  const added = records.filter((record) => inserted.has(record.id));
  await replaceReviews(tx, added, false);
  await writeListRows(
    tx,
    added.map((record) => record.id),
  );
  return inserted;
}

/** Writes these records whole: teachers inserted or replaced, their reviews replaced, list rows rewritten. */
export async function upsertRecords(tx: Db, records: readonly IdentifiedRecord[]): Promise<void> {
  await upsertTeachers(tx, records);
  await replaceReviews(tx, records, true);
  await writeListRows(
    tx,
    records.map((record) => record.id),
  );
}

/** Marks the catalogue as changed, so every server's cache drops what it holds. */
export async function bumpCatalogueVersion(tx: Db): Promise<void> {
  await tx
    .insert(catalogueVersion)
    .values({ id: 1, version: 1 })
    .onConflictDoUpdate({
      target: catalogueVersion.id,
      set: { version: sql`${catalogueVersion.version} + 1`, updatedAt: sql`now()` },
    });
}

/**
 * After a bulk load: fresh planner statistics (array containment estimates are wrong
 * without them) and an up-to-date visibility map, so the list query stays an
 * index-only scan. Runs outside any transaction (VACUUM cannot run inside one).
 */
export async function refreshCatalogueStatistics(db: Database): Promise<void> {
  // VACUUM ANALYZE, not ANALYZE alone: it also updates the visibility map counts, which
  // is what reliably makes PostgreSQL re-plan prepared generic plans built before (an
  // ANALYZE that writes the same page and row counts may leave them in place).
  await db.rows(sql`vacuum analyze teacher`);
  await db.rows(sql`vacuum analyze teacher_language`);
  await db.rows(sql`vacuum analyze teacher_search`);
  await db.rows(sql`vacuum analyze teacher_name`);
  await db.rows(sql`vacuum analyze teacher_word`);
  await db.rows(sql`analyze review`);
  await db.rows(sql`analyze teacher_card`);
}

/** The tables whose statistics the list's generic plan depends on. */
const PLANNED_TABLES = ['teacher', 'teacher_language', 'teacher_search', 'teacher_name'];

/**
 * Planner statistics for a catalogue that has none (a database migrated from an older
 * schema, or loaded by other means): without them the list query can fall back to
 * slow plans. Cheap when statistics exist: one catalogue lookup.
 */
export async function ensureCatalogueStatistics(db: Database): Promise<boolean> {
  const [row] = await db.rows<{ analysed: boolean }>(
    sql`select count(distinct tablename) = ${PLANNED_TABLES.length} as analysed from pg_stats
        where schemaname = current_schema() and tablename = any(${sql.param(PLANNED_TABLES)}::text[])`,
  );
  if (row?.analysed || (await countTeachers(db)) === 0) return false;
  await refreshCatalogueStatistics(db);
  return true;
}

export async function countTeachers(db: Database): Promise<number> {
  const [row] = await db.orm.select({ n: count() }).from(teacher);
  return Number(row?.n ?? 0);
}
