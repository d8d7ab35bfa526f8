import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { teacherRecordSchema, type Teacher, type TeachersPage } from '@learnlingo/contract';

/**
 * The real catalogue (../shared/data/teachers.json beside the repository), read — never
 * copied — for tests. Its records have no ids; they get "1", "2", … in file order.
 */
function findDataFile(): string {
  if (process.env.TEACHERS_JSON) return process.env.TEACHERS_JSON;
  // Tests run from the repository or from apps/web: look upwards for ../shared/data.
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'data', 'teachers.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('shared/data/teachers.json not found; set TEACHERS_JSON');
  }
}

const exportSchema = z.union([
  z.object({ teachers: z.union([z.array(teacherRecordSchema), z.record(z.string(), teacherRecordSchema)]) }),
  z.array(teacherRecordSchema),
  z.record(z.string(), teacherRecordSchema),
]);

let cache: Teacher[] | undefined;

export function loadTeachers(): Teacher[] {
  if (cache) return cache;
  const parsed = exportSchema.parse(JSON.parse(readFileSync(findDataFile(), 'utf8')));
  const collection = Array.isArray(parsed) ? parsed : 'teachers' in parsed && parsed.teachers ? parsed.teachers : parsed;
  const entries: [string, z.infer<typeof teacherRecordSchema>][] = Array.isArray(collection)
    ? collection.map((record, index) => [String(index + 1), record])
    : Object.entries(collection as Record<string, z.infer<typeof teacherRecordSchema>>);
  cache = entries.map(([key, record]) => ({ ...record, id: record.id ?? key }));
  return cache;
}

/** The server's catalogue order: rating desc, then id desc. */
export function catalogueOrder(teachers: readonly Teacher[]): Teacher[] {
  return [...teachers].sort((a, b) => b.rating - a.rating || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** A page as GET /api/teachers returns it; the cursor is simply the next offset here. */
export function pageOf(teachers: readonly Teacher[], cursor: string | null, limit = 4): TeachersPage {
  const start = cursor ? Number(cursor) : 0;
  const items = teachers.slice(start, start + limit);
  const next = start + limit;
  return { items, nextCursor: next < teachers.length ? String(next) : null, total: teachers.length };
}
