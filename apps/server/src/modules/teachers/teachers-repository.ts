import { LEVELS, type Facets, type Level, type Stats, type Teacher, type TeacherFilters } from '@learnlingo/contract';
import { and, desc, eq, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { catalogueVersion, teacher } from '../../db/schema.js';
import type { CursorPosition } from './cursor.js';
import { teacherFields, teacherJsonFields, toTeacher, type TeacherJsonRow, type TeacherRow } from './teacher-row.js';

const ph = sql.placeholder;

interface ListFlags {
  language: boolean;
  level: boolean;
  price: boolean;
  after: boolean;
}

function buildListQuery(db: Database, flags: ListFlags) {
  const where: SQL[] = [];
  // Checked on the index tuples of teacher_list_order_idx (an index-only scan).
  if (flags.language) where.push(sql`${teacher.languages} @> array[${ph('language')}]::text[]`);
  if (flags.level) where.push(sql`${teacher.levels} @> array[${ph('level')}]::text[]`);
  if (flags.price) where.push(lte(teacher.pricePerHour, ph('price')));
  // Keyset: a row comparison in the order's direction, served by teacher_list_order_idx.
  if (flags.after) {
    where.push(sql`(${teacher.rating}, ${teacher.id}) < (${ph('afterRating')}::float8, ${ph('afterId')}::text)`);
  }
  const name = `teachers_list_${Number(flags.language)}${Number(flags.level)}${Number(flags.price)}${Number(flags.after)}`;
  // Deferred join: find the page's ids from the index alone, then read only those rows.
  const page = db.orm
    .$with('page')
    .as(
      db.orm
        .select({ pageId: sql<string>`${teacher.id}`.as('page_id') })
        .from(teacher)
        .where(where.length > 0 ? and(...where) : undefined)
        .orderBy(desc(teacher.rating), desc(teacher.id))
        .limit(ph('limit')),
    );
  return db.orm
    .with(page)
    .select(teacherJsonFields)
    .from(page)
    .innerJoin(teacher, eq(teacher.id, page.pageId))
    .orderBy(desc(teacher.rating), desc(teacher.id))
    .prepare(name);
}

type ListStatement = ReturnType<typeof buildListQuery>;

export interface ListPage {
  /** the page's teachers as a JSON array (text), built by the database in the contract's shape */
  itemsJson: string;
  /** position of the last item when there are more rows after it */
  next: CursorPosition | null;
}

/** Reads of the catalogue. Hot queries are prepared once per filter combination. */
export function createTeachersRepository(db: Database) {
  const listStatements = new Map<string, ListStatement>();
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
      const flags: ListFlags = {
        language: filters.language !== undefined,
        level: filters.level !== undefined,
        price: filters.price !== undefined,
        after: after !== null,
      };
      const key = JSON.stringify(flags);
      let statement = listStatements.get(key);
      if (!statement) {
        statement = buildListQuery(db, flags);
        listStatements.set(key, statement);
      }
      const rows = (await statement.execute({
        language: filters.language,
        level: filters.level,
        price: filters.price,
        afterRating: after?.rating,
        afterId: after?.id,
        limit: limit + 1,
      })) as TeacherJsonRow[];
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
