import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { booking, teacher, teacherAvailability } from '../../db/schema.js';
import { insertNewRecords, type IdentifiedRecord } from './catalogue-writer.js';
import { CatalogueWriteError, singleWrite, teacherPatchSchema, type TeacherPatch } from './teacher-writes.js';
import { TEACHER_COLUMN_FIELDS } from '../model/teacher-row.js';

/*
 * The console's writes of one teacher (decision 111), on the single-teacher write path of
 * decision 107 (one transaction under the writers' lock, the teacher re-projected, one feed
 * row): status changes, a new teacher as a draft or published, an edit of the card's fields
 * with the teacher's hours. Each takes an `audit` that runs in the same transaction with the
 * teacher before and after (the activity log's row).
 *
 * Status: draft (never public) → published → hidden (a reason is kept) → published again.
 * `teacher.hidden` stays the projection's flag: true exactly when the status is not
 * published (a check in the database). A hidden teacher that was public (published_at set)
 * answers 410 on its page; a draft, 404.
 */

export type TeacherStatus = 'draft' | 'published' | 'hidden';

/** One teacher as the console shows it (the card's fields, hours, status). */
export interface ConsoleTeacher {
  id: string;
  name: string;
  surname: string;
  languages: string[];
  levels: string[];
  price_per_hour: number;
  rating: number;
  lessons_done: number;
  lesson_info: string;
  conditions: string[];
  experience: string;
  avatar_url: string | null;
  country: string | null;
  timeZone: string | null;
  weeklyHours: number[][][] | null;
  status: TeacherStatus;
  statusReason: string | null;
  publishedAt: string | null;
  lessonsBooked: number;
}

/** The activity row's author: what changed, in the write's transaction. */
export type ConsoleAudit = (tx: Db, change: { before: ConsoleTeacher | null; after: ConsoleTeacher }) => Promise<void>;

/** Lessons booked that are not cancelled nor waiting for their e-mail link. */
// (the teacher's id spelled out: drizzle names a lone table's columns bare, which `b` would capture)
const lessonsBooked = sql<number>`(select count(*)::int from ${booking} b where b.teacher_id = "teacher"."id" and b.cancelled_at is null and b.hold_expires_at is null)`;

const consoleColumns = {
  id: teacher.id,
  name: teacher.name,
  surname: teacher.surname,
  languages: teacher.languages,
  levels: teacher.levels,
  price_per_hour: teacher.pricePerHour,
  rating: teacher.rating,
  lessons_done: teacher.lessonsDone,
  lesson_info: teacher.lessonInfo,
  conditions: teacher.conditions,
  experience: teacher.experience,
  avatar_url: teacher.avatarUrl,
  country: teacher.country,
  timeZone: teacherAvailability.timeZone,
  weeklyHours: teacherAvailability.weeklyHours,
  status: teacher.status,
  statusReason: teacher.statusReason,
  publishedAt: teacher.publishedAt,
  lessonsBooked,
};

/** One teacher as the console shows it, or null. */
export async function readConsoleTeacher(db: Db, id: string, { lock = false } = {}): Promise<ConsoleTeacher | null> {
  const query = db.select(consoleColumns).from(teacher).leftJoin(teacherAvailability, eq(teacherAvailability.teacherId, teacher.id)).where(eq(teacher.id, id));
  const [row] = lock ? await query.for('update', { of: teacher }) : await query;
  if (!row) return null;
  return { ...row, publishedAt: row.publishedAt?.toISOString() ?? null, weeklyHours: row.weeklyHours ?? null };
}

export interface ConsoleTeacherQuery {
  q?: string;
  status?: TeacherStatus;
  page: number;
  pageSize: number;
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of teachers for the console's table: by surname, name, id; searched by name or id. */
export async function listConsoleTeachers(db: Database, query: ConsoleTeacherQuery) {
  const conditions: SQL[] = [];
  if (query.q) {
    const pattern = likePattern(query.q);
    conditions.push(sql`(${teacher.name} || ' ' || ${teacher.surname} ilike ${pattern} or ${teacher.id} = ${query.q})`);
  }
  if (query.status) conditions.push(eq(teacher.status, query.status));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [items, [total]] = await Promise.all([
    db.orm
      .select({
        id: teacher.id,
        name: teacher.name,
        surname: teacher.surname,
        languages: teacher.languages,
        price_per_hour: teacher.pricePerHour,
        rating: teacher.rating,
        status: teacher.status,
        lessonsBooked,
      })
      .from(teacher)
      .where(where)
      .orderBy(asc(teacher.surname), asc(teacher.name), asc(teacher.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.orm.select({ n: count() }).from(teacher).where(where),
  ]);
  return { items, total: total?.n ?? 0, page: query.page, pageSize: query.pageSize };
}

/** A teacher's own hours (both) or the school's (null). */
export interface TeacherHours {
  timeZone: string;
  weeklyHours: number[][][];
}

async function writeHours(tx: Db, id: string, hours: TeacherHours | null): Promise<void> {
  if (hours === null) {
    await tx.delete(teacherAvailability).where(eq(teacherAvailability.teacherId, id));
    return;
  }
  await tx
    .insert(teacherAvailability)
    .values({ teacherId: id, timeZone: hours.timeZone, weeklyHours: hours.weeklyHours })
    .onConflictDoUpdate({ target: teacherAvailability.teacherId, set: { timeZone: hours.timeZone, weeklyHours: hours.weeklyHours } });
}

/** A new teacher's id: `c` and 12 random base64url characters (the catalogue's own are t000001…). */
export const newConsoleTeacherId = () => `c${randomBytes(9).toString('base64url')}`;

/**
 * Adds a teacher from the console: a draft (not in the catalogue) unless `status` is
 * published, with its own hours or the school's. Returns it as the console shows it.
 */
export async function createConsoleTeacher(
  db: Database,
  record: IdentifiedRecord,
  options: { status: 'draft' | 'published'; hours: TeacherHours | null; audit?: ConsoleAudit },
): Promise<ConsoleTeacher> {
  let created: ConsoleTeacher | null = null;
  await singleWrite(db, record.id, async (tx) => {
    const inserted = await insertNewRecords(tx, [record]);
    if (!inserted.has(record.id)) throw new CatalogueWriteError('EXISTS', `A teacher with id ${record.id} exists`, 'id');
    await tx
      .update(teacher)
      .set(
        options.status === 'draft'
          ? { status: 'draft', hidden: true, publishedAt: null, consoleEditedAt: sql`now()` }
          : { status: 'published', hidden: false, publishedAt: sql`now()`, consoleEditedAt: sql`now()` },
      )
      .where(eq(teacher.id, record.id));
    await writeHours(tx, record.id, options.hours);
    created = await readConsoleTeacher(tx, record.id);
    await options.audit?.(tx, { before: null, after: created! });
    return true;
  });
  return created!;
}

/**
 * Changes the card's fields (the contract's record rules; reviews, rating and lessons done
 * are not the console's) and, when `hours` is given, the teacher's hours (null: the school's).
 * Marks the teacher as edited in the console (decision 111: an import over it says so).
 */
export async function editConsoleTeacher(
  db: Database,
  id: string,
  patch: TeacherPatch,
  options: { hours?: TeacherHours | null; audit?: ConsoleAudit },
): Promise<ConsoleTeacher> {
  const parsed = teacherPatchSchema.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? String(issue.path[0]) : undefined;
    throw new CatalogueWriteError('INVALID', `${field ?? 'input'}: ${issue?.message ?? 'invalid'}`, field);
  }
  const given = new Set(Object.keys(patch as object));
  const set: Record<string, unknown> = { updatedAt: sql`now()`, consoleEditedAt: sql`now()` };
  for (const { field, key } of TEACHER_COLUMN_FIELDS) {
    if (field !== 'id' && given.has(field)) set[key] = (parsed.data as Record<string, unknown>)[field];
  }
  let after: ConsoleTeacher | null = null;
  await singleWrite(db, id, async (tx) => {
    const before = await readConsoleTeacher(tx, id, { lock: true });
    if (!before) throw new CatalogueWriteError('NOT_FOUND', `No teacher with id ${id}`, 'id');
    await tx.update(teacher).set(set).where(eq(teacher.id, id));
    if (options.hours !== undefined) await writeHours(tx, id, options.hours);
    after = await readConsoleTeacher(tx, id);
    await options.audit?.(tx, { before, after: after! });
    return true;
  });
  return after!;
}

/**
 * Moves a teacher to `status`: published shows it (it joins the list, search, counts and
 * sitemap within the feed's second), hidden or draft takes it out. Hiding needs a reason,
 * which is kept; a teacher who was public cannot become a draft again. Returns the teacher
 * after (unchanged when it already had that status and reason).
 * Throws CatalogueWriteError: NOT_FOUND, INVALID (field `status` or `reason`).
 */
export async function setTeacherStatus(
  db: Database,
  id: string,
  status: TeacherStatus,
  reason: string | null,
  audit?: ConsoleAudit,
): Promise<ConsoleTeacher> {
  if (status === 'hidden' && !reason) throw new CatalogueWriteError('INVALID', 'reason: Say why the teacher is hidden', 'reason');
  let result: ConsoleTeacher | null = null;
  await singleWrite(db, id, async (tx) => {
    const before = await readConsoleTeacher(tx, id, { lock: true });
    if (!before) throw new CatalogueWriteError('NOT_FOUND', `No teacher with id ${id}`, 'id');
    if (status === 'draft' && before.publishedAt !== null) {
      throw new CatalogueWriteError('INVALID', 'status: A teacher who was public can be hidden, not made a draft again', 'status');
    }
    const statusReason = status === 'hidden' ? reason : null;
    if (before.status === status && before.statusReason === statusReason) {
      result = before;
      return false;
    }
    await tx
      .update(teacher)
      .set({
        status,
        hidden: status !== 'published',
        statusReason,
        publishedAt: status === 'published' ? sql`coalesce(${teacher.publishedAt}, now())` : undefined,
        updatedAt: sql`now()`,
      })
      .where(eq(teacher.id, id));
    result = await readConsoleTeacher(tx, id);
    await audit?.(tx, { before, after: result! });
    return true;
  });
  return result!;
}

/** Whether a teacher not shown was public once and is hidden now (its page: 410, not 404). */
export async function teacherGone(db: Database, id: string): Promise<boolean> {
  const [row] = await db.orm
    .select({ id: teacher.id })
    .from(teacher)
    .where(and(eq(teacher.id, id), eq(teacher.status, 'hidden'), sql`${teacher.publishedAt} is not null`));
  return row !== undefined;
}

/** Teachers of these ids edited in the console (for the importer's rule, decision 111). */
export async function consoleEditedAmong(tx: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: teacher.id })
    .from(teacher)
    .where(and(sql`${teacher.id} = any(${sql.param([...ids])}::text[])`, sql`${teacher.consoleEditedAt} is not null`));
  return new Set(rows.map((r) => r.id));
}

/** Forgets the console's edit mark of these teachers (an import has overwritten them). */
export async function clearConsoleEdits(tx: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.update(teacher).set({ consoleEditedAt: null }).where(sql`${teacher.id} = any(${sql.param([...ids])}::text[])`);
}

