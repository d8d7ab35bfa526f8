import { teacherRecordSchema, type TeacherRecord } from '@learnlingo/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Db } from '../../db/client.js';
import { catalogueChange, teacher } from '../../db/schema.js';
import { TEACHER_COLUMN_FIELDS } from '../model/teacher-row.js';
import { CATALOGUE_WRITE_LOCK, insertNewRecords, writeChangedListRows, writeListRows } from './catalogue-writer.js';

/*
 * Single-teacher writes (decision 107): the school's console, a teacher's own profile, a
 * review's rating. Each is ONE transaction that writes the teacher's row — never its
 * reviews — (its row lock: two writes of one teacher queue, the last to commit wins whole),
 * re-projects that teacher alone and appends one row to the change feed (catalogue_change),
 * which every server follows. The re-projection is the narrow one when it can be
 * (writeChangedListRows: an update that changes no searched column rewrites in place only
 * the card and the columns of the list rows it reaches, without the writers' lock), else the
 * whole one (writeListRows under the catalogue writers' advisory lock: the names and words
 * are shared between teachers, decisions 095 and 108). The feed row is written last, under
 * that lock, held to commit (seq order is commit order): for a narrow update the lock is
 * held for one statement and the commit (decision 107's addendum).
 */

/** Why a single-teacher write was refused: `field` names the input at fault (HTTP: 400 naming it). */
export class CatalogueWriteError extends Error {
  constructor(
    readonly code: 'INVALID' | 'NOT_FOUND' | 'EXISTS',
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'CatalogueWriteError';
  }
}

/** What updateTeacher may change: any field of the record but its id and its reviews. */
export const teacherPatchSchema = teacherRecordSchema.omit({ id: true, reviews: true }).partial().strict();
export type TeacherPatch = z.input<typeof teacherPatchSchema>;

function invalid(error: z.ZodError): CatalogueWriteError {
  const issue = error.issues[0];
  const field = issue?.path.length ? String(issue.path[0]) : undefined;
  return new CatalogueWriteError('INVALID', issue ? `${field ?? 'input'}: ${issue.message}` : 'Invalid input', field);
}

/** The NOTIFY channel of the change feed (decision 107). */
export const FEED_CHANNEL = 'catalogue_change';

/** Listeners of one database's feed in this process (in-process wake-up: PGlite, or servers sharing a pool). */
const written = new WeakMap<Database, Set<() => void>>();

/** Calls `listener` after each single-teacher write committed through `db` in this process; returns the unsubscribe. */
export function onFeedWritten(db: Database, listener: () => void): () => void {
  let listeners = written.get(db);
  if (!listeners) written.set(db, (listeners = new Set()));
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The feed row of one write, under the catalogue writers' advisory lock, and the wake-up: ONE
 * statement. The lock is taken (the MATERIALIZED CTE, scanned for the row to insert) before
 * the row's `nextval`, and held to commit, so seq order is commit order (decision 107). The
 * NOTIFY is delivered at commit.
 */
const FEED_APPEND = (id: string) => sql`with locked as materialized (select pg_advisory_xact_lock(${CATALOGUE_WRITE_LOCK}) as locked),
    appended as (insert into ${catalogueChange} (teacher_id, changed_at) select ${id}, clock_timestamp() from locked returning seq)
  select pg_notify(${FEED_CHANNEL}, '') from appended`;

/**
 * Appends one teacher's change to the feed (its seq in commit order), in the caller's
 * transaction, which must have written that teacher's row and list rows (writeListRows, or
 * writeChangedListRows) first: the writers' lock is held from here to the commit, so take it
 * last. In-process listeners (onFeedWritten) are the caller's to call after the commit.
 */
export async function appendCatalogueChange(tx: Db, id: string): Promise<void> {
  await tx.execute(FEED_APPEND(id));
}

/**
 * The transaction of one write: `write` (false: nothing changed; its row lock queues two writes
 * of one teacher), then `project` (the re-projection), then the feed row under the writers'
 * lock (appendCatalogueChange); then the in-process wake-up.
 */
export async function singleWrite(
  db: Database,
  id: string,
  write: (tx: Db) => Promise<boolean>,
  project: (tx: Db) => Promise<void> = (tx) => wholeProjection(tx, id),
): Promise<boolean> {
  const changed = await db.orm.transaction(async (tx) => {
    if (!(await write(tx))) return false;
    await project(tx);
    await appendCatalogueChange(tx, id);
    return true;
  });
  if (changed) for (const listener of written.get(db) ?? []) listener();
  return changed;
}

/** The whole re-projection of one teacher (writeListRows), under the writers' lock (its names and words). */
async function wholeProjection(tx: Db, id: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${CATALOGUE_WRITE_LOCK})`);
  await writeListRows(tx, [id], { locked: true });
}

/**
 * Changes these fields of one teacher (validated by the contract's record schema; its
 * reviews are left as they are). Hidden teachers can be edited and stay hidden.
 * Throws CatalogueWriteError: INVALID (field named), NOT_FOUND.
 */
export async function updateTeacher(db: Database, id: string, patch: TeacherPatch): Promise<void> {
  const parsed = teacherPatchSchema.safeParse(patch);
  if (!parsed.success) throw invalid(parsed.error);
  // only the fields given (a default of the record schema is no change)
  const given = new Set(Object.keys(patch as object));
  const set: Record<string, unknown> = { updatedAt: sql`now()` };
  for (const { field, key } of TEACHER_COLUMN_FIELDS) {
    if (field !== 'id' && given.has(field)) set[key] = (parsed.data as Record<string, unknown>)[field];
  }
  const changed = TEACHER_COLUMN_FIELDS.filter(({ field }) => field !== 'id' && given.has(field)).map(({ column }) => column.name);
  await singleWrite(
    db,
    id,
    async (tx) => {
      const rows = await tx.update(teacher).set(set).where(eq(teacher.id, id)).returning({ id: teacher.id });
      if (rows.length === 0) throw new CatalogueWriteError('NOT_FOUND', `No teacher with id ${id}`, 'id');
      return true;
    },
    // only the rows these columns reach, without the lock; a searched column: the whole re-projection
    async (tx) => {
      if (!(await writeChangedListRows(tx, id, changed))) await wholeProjection(tx, id);
    },
  );
}

/**
 * Adds one teacher (with its reviews, if the record has any); returns its id — the record's,
 * which it must have. Throws CatalogueWriteError: INVALID (field named), EXISTS.
 */
export async function createTeacher(db: Database, record: TeacherRecord | Record<string, unknown>): Promise<string> {
  const parsed = teacherRecordSchema.safeParse(record);
  if (!parsed.success) throw invalid(parsed.error);
  const id = parsed.data.id;
  if (id === undefined) throw new CatalogueWriteError('INVALID', 'id: Required', 'id');
  await singleWrite(
    db,
    id,
    async (tx) => {
      // the teacher, its reviews and its list rows (writeListRows, under the writers' lock)
      const inserted = await insertNewRecords(tx, [{ ...parsed.data, id }]);
      if (!inserted.has(id)) throw new CatalogueWriteError('EXISTS', `A teacher with id ${id} exists`, 'id');
      return true;
    },
    async () => {},
  );
  return id;
}

/**
 * Hides one teacher (`hidden` false: shows it again): the row stays — bookings and
 * favourites reference it — but it leaves the list, search, counts, its page (404) and the
 * sitemap. Returns whether it changed (false: it was so already). Throws NOT_FOUND.
 */
export async function setTeacherHidden(db: Database, id: string, hidden: boolean): Promise<boolean> {
  return singleWrite(db, id, async (tx) => {
    const rows = await tx
      .update(teacher)
      // (the status follows: hidden exactly when not published, decision 111)
      .set({ hidden, status: hidden ? 'hidden' : 'published', publishedAt: sql`coalesce(${teacher.publishedAt}, now())`, updatedAt: sql`now()` })
      .where(and(eq(teacher.id, id), eq(teacher.hidden, !hidden)))
      .returning({ id: teacher.id });
    if (rows.length > 0) return true;
    const [exists] = await tx.select({ id: teacher.id }).from(teacher).where(eq(teacher.id, id));
    if (!exists) throw new CatalogueWriteError('NOT_FOUND', `No teacher with id ${id}`, 'id');
    return false;
  });
}

export const hideTeacher = (db: Database, id: string) => setTeacherHidden(db, id, true);
export const unhideTeacher = (db: Database, id: string) => setTeacherHidden(db, id, false);
