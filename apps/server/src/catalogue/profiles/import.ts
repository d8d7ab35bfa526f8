import fs from 'node:fs/promises';
import { teacherIdSchema, teacherRecordSchema } from '@learnlingo/contract';
import type { Database } from '../../db/client.js';
import { createTeachersRepository } from '../sql/teachers-repository.js';
import { comparableTeacher, TEACHER_API_FIELDS } from '../model/teacher-row.js';
import type { Teacher } from '@learnlingo/contract';
import { recordActivity, type Actor } from '../../staff/activity.js';
import { clearConsoleEdits, consoleEditedAmong } from '../sql/teacher-status.js';
import {
  bumpCatalogueVersion,
  refreshCatalogueStatistics,
  upsertRecords,
  type IdentifiedRecord,
} from '../sql/catalogue-writer.js';

/*
 * Loads a realtime-database export of the catalogue. Accepted shapes:
 *   {"teachers": [ {...}, ... ]}    {"teachers": {"<id>": {...}, ...}}
 *   {"<id>": {...}, ...}            [ {...}, ... ]
 * A record's own `id` wins; otherwise the object key is the id, and for arrays the index
 * (that is what the realtime database's export of an array means: keys "0", "1", …).
 * Every record is validated before anything is written; then one transaction upserts.
 */

export interface ImportEntry {
  /** where the record sits in the file, for messages: teachers[3], teachers.abc, abc, [3] */
  label: string;
  record: IdentifiedRecord;
}

export interface ImportResult {
  inserted: number;
  updated: number;
  unchanged: number;
  /** null entries (deleted array slots in a realtime-database export) */
  skipped: number;
  /** teachers edited in the console whose edit the export overwrote (decision 111: the export wins, the log says so) */
  overwroteEdits: string[];
}

/** Who the activity log names for an import's changes. */
export const IMPORT_ACTOR: Actor = { id: null, name: 'Command line (npm run import)', email: '' };

/** The record's fields that differ from the teacher as it was, before and after. */
function overwritten(before: Teacher, record: IdentifiedRecord) {
  const fields = TEACHER_API_FIELDS.filter((f) => f !== 'reviews' && f !== 'id' && JSON.stringify(before[f]) !== JSON.stringify(record[f]));
  return {
    before: Object.fromEntries(fields.map((f) => [f, before[f]])),
    after: Object.fromEntries(fields.map((f) => [f, record[f]])),
  };
}

export class ImportError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length > shown.length ? `\n  … and ${problems.length - shown.length} more` : '';
    super(`The file was not imported (nothing was written):\n${shown.map((p) => `  ${p}`).join('\n')}${more}`);
    this.name = 'ImportError';
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function locate(data: unknown): { prefix: string; entries: [key: string, value: unknown, label: string][] } {
  const fromArray = (items: unknown[], prefix: string) =>
    items.map((value, index): [string, unknown, string] => [String(index), value, `${prefix}[${index}]`]);
  const fromObject = (obj: Record<string, unknown>, prefix: string) =>
    Object.entries(obj).map(([key, value]): [string, unknown, string] => [
      key,
      value,
      prefix ? `${prefix}.${key}` : key,
    ]);

  if (Array.isArray(data)) return { prefix: '', entries: fromArray(data, '') };
  if (!isPlainObject(data)) {
    throw new ImportError(['the file must hold an array of teachers or an object keyed by teacher id']);
  }
  const keys = Object.keys(data);
  const wrapped = data.teachers;
  if (keys.length === 1 && keys[0] === 'teachers' && (Array.isArray(wrapped) || isPlainObject(wrapped))) {
    // {"teachers": …}, unless "teachers" is itself a teacher record keyed by the id "teachers"
    if (Array.isArray(wrapped)) return { prefix: 'teachers', entries: fromArray(wrapped, 'teachers') };
    if (!('name' in wrapped && 'languages' in wrapped)) {
      return { prefix: 'teachers', entries: fromObject(wrapped, 'teachers') };
    }
  }
  return { prefix: '', entries: fromObject(data, '') };
}

function describeIssue(label: string, path: PropertyKey[], message: string): string {
  const suffix = path
    .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
    .join('');
  return `${label}${suffix}: ${message}`;
}

/** Validates a parsed export; throws ImportError listing every bad record and field. */
export function parseExport(data: unknown): { entries: ImportEntry[]; skipped: number } {
  const { entries } = locate(data);
  const problems: string[] = [];
  const out: ImportEntry[] = [];
  const seen = new Map<string, string>();
  let skipped = 0;

  for (const [key, value, label] of entries) {
    if (value === null) {
      skipped += 1;
      continue;
    }
    if (!isPlainObject(value)) {
      problems.push(`${label}: expected a teacher object, received ${Array.isArray(value) ? 'array' : typeof value}`);
      continue;
    }
    const parsed = teacherRecordSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) problems.push(describeIssue(label, issue.path, issue.message));
      continue;
    }
    const id = parsed.data.id ?? key;
    if (!teacherIdSchema.safeParse(id).success) {
      problems.push(`${label}: "${id}" cannot be a teacher id (use letters, digits, - and _, at most 64)`);
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(`${label}: duplicate teacher id "${id}" (also at ${first})`);
      continue;
    }
    seen.set(id, label);
    out.push({ label, record: { ...parsed.data, id } });
  }
  if (problems.length > 0) throw new ImportError(problems);
  if (out.length === 0) throw new ImportError(['the file holds no teachers']);
  return { entries: out, skipped };
}

/** Writes validated entries in one transaction; identical teachers are left untouched. */
export async function importEntries(
  db: Database,
  entries: ImportEntry[],
  skipped = 0,
): Promise<ImportResult> {
  const repository = createTeachersRepository(db);
  const existing = new Map<string, string>();
  const teachers = new Map<string, Teacher>();
  const ids = entries.map((e) => e.record.id);
  for (let i = 0; i < ids.length; i += 1000) {
    for (const t of await repository.getByIds(ids.slice(i, i + 1000))) {
      existing.set(t.id, comparableTeacher(t));
      teachers.set(t.id, t);
    }
  }

  const changed: IdentifiedRecord[] = [];
  const result: ImportResult = { inserted: 0, updated: 0, unchanged: 0, skipped, overwroteEdits: [] };
  for (const { record } of entries) {
    const before = existing.get(record.id);
    if (before === undefined) result.inserted += 1;
    else if (before === comparableTeacher(record)) {
      result.unchanged += 1;
      continue;
    } else result.updated += 1;
    changed.push(record);
  }

  if (changed.length > 0) {
    await db.orm.transaction(async (tx) => {
      // The export wins over a console edit (decision 111), and says so: each such teacher gets an
      // activity row with what the import overwrote, and the command lists them.
      const edited = await consoleEditedAmong(
        tx,
        changed.filter((record) => teachers.has(record.id)).map((record) => record.id),
      );
      await upsertRecords(tx, changed);
      for (const record of changed) {
        if (!edited.has(record.id)) continue;
        await recordActivity(tx, {
          actor: IMPORT_ACTOR,
          action: 'teacher.import-overwrote-edit',
          subject: { type: 'teacher', id: record.id },
          ...overwritten(teachers.get(record.id)!, record),
        });
        result.overwroteEdits.push(record.id);
      }
      await clearConsoleEdits(tx, result.overwroteEdits);
      await bumpCatalogueVersion(tx);
    });
    await refreshCatalogueStatistics(db);
  }
  return result;
}

export async function importFile(db: Database, file: string): Promise<ImportResult> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new ImportError([`cannot read ${file}: ${(error as Error).message}`]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ImportError([`${file} is not valid JSON: ${(error as Error).message}`]);
  }
  const { entries, skipped } = parseExport(data);
  return importEntries(db, entries, skipped);
}
