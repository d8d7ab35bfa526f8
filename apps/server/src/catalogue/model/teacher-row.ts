import { CARD_LESSON_REVIEWS, teacherSchema, type Level, type Review, type Teacher } from '@learnlingo/contract';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { teacher } from '../../db/schema.js';

/*
 * THE teacher field list. A teacher as the API returns it is the contract's teacherSchema;
 * each of its fields but `reviews` is the `teacher` column of the same SQL name (Drizzle's
 * getTableColumns), and `reviews` comes from the review table. Everything that lists a
 * teacher's fields derives from this pairing: the reads (teacherFields, toTeacher), the
 * card's JSON (teacherCardJson), the catalogue writer's insert values, column list and
 * upsert set (teacherValues, TEACHER_COLUMN_LIST, teacherUpsertSet) and the importer's
 * comparison (comparableTeacher). A new field is the column in schema.ts (+ its
 * migration), the field in teacherSchema and teacherRecordSchema, and its entry in the
 * registry's FIELDS (model/registry.ts) — enough for a field that is only shown. A field
 * that is also filtered, counted, searched or sorted on takes part in more than this
 * pairing: see registry.ts (decision 106) for what each role asks.
 */

/** A field of the API's teacher held by the `teacher` table: all but `reviews`. */
export type TeacherColumnField = Exclude<keyof Teacher, 'reviews'>;

/** The API's field names, in teacherSchema's order (the order of every teacher's JSON). */
export const TEACHER_API_FIELDS = Object.keys(teacherSchema.shape) as (keyof Teacher)[];

/** Each column field with its Drizzle property name and column, in the API's order. */
export const TEACHER_COLUMN_FIELDS: readonly { field: TeacherColumnField; key: string; column: PgColumn }[] = (() => {
  const bySqlName = new Map(Object.entries(getTableColumns(teacher)).map(([key, column]) => [column.name, { key, column }]));
  return TEACHER_API_FIELDS.filter((field): field is TeacherColumnField => field !== 'reviews').map((field) => {
    const found = bySqlName.get(field);
    if (!found) throw new Error(`teacherSchema's field "${field}" has no column of that name in the teacher table`);
    return { field, ...found };
  });
})();

/**
 * The reviews of the teacher row aliased "teacher", as a JSON array: its newest visible
 * reviews of lessons taken here (at most CARD_LESSON_REVIEWS; the teacher page pages them
 * all, decision 112), then the imported ones in their order, but those the school hid
 * (decision 120). A teacher without lesson reviews or hides has the reviews it always had. Each part is aggregated in its index's order and the two are
 * joined as text, so no plan that may build a card (a list page's fallback) sorts anything
 * (list-plan.test.ts).
 */
const reviewsJson = sql`('[' || concat_ws(',',
    (select string_agg(l.j::text, ',' order by l.created_at desc, l.id) from (
        select lr.created_at, lr.id, json_build_object(
          'reviewer_name', lr.reviewer_name, 'reviewer_rating', lr.rating, 'comment', lr.comment, 'lesson', true,
          'date', to_char(lr.lesson_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
          'language', lr.language, 'reply', lr.reply) as j
        from lesson_review lr where lr.teacher_id = "teacher"."id" and lr.hidden_at is null
        order by lr.created_at desc, lr.id limit ${sql.raw(String(CARD_LESSON_REVIEWS))}) l),
    (select string_agg((select row_to_json(r) from (select rv.reviewer_name, rv.reviewer_rating, rv.comment) r)::text, ',' order by rv.position)
      from review rv where rv.teacher_id = "teacher"."id" and rv.hidden_at is null)) || ']')::json`;

/**
 * The columns of one teacher as the API returns it, under the API's names, reviews included
 * (aggregated in the same query, ordered by position), so a read is one round trip.
 */
export const teacherFields = {
  ...(Object.fromEntries(TEACHER_COLUMN_FIELDS.map(({ field, column }) => [field, column])) as Record<
    TeacherColumnField,
    PgColumn
  >),
  reviews: sql<Review[] | string>`${reviewsJson}`,
};

/**
 * One teacher as the API's JSON text, built by the database from the row aliased
 * "teacher" and its reviews: what the catalogue writer stores in `teacher_card` (the
 * list's hot path reads it back with no JSON building, array parsing, row mapping,
 * validation or stringifying per request). The field names and order are teacherSchema's;
 * double precision columns become JSON numbers (PostgreSQL prints the shortest exact
 * form, like JS), text[] JSON arrays of strings. Tests compare list pages with the
 * generated teachers and with the by-id reads, and parse every page with the contract.
 */
export const teacherCardJson = sql<string>`(select row_to_json(t)::text from (select ${sql.join(
  TEACHER_API_FIELDS.map((field): SQL => (field === 'reviews' ? sql`${reviewsJson} as reviews` : sql.raw(`"teacher"."${field}"`))),
  sql`, `,
)}) t)`;

/** One list row: a teacher's card and its position in the page's order (the keyset cursor's). */
export interface TeacherJsonRow {
  /** the order's value (rating, price, lessons done, relevance) */
  value: number;
  id: string;
  /** one teacher, JSON text in teacherSchema's shape */
  json: string;
}

/** A row read with teacherFields. */
export type TeacherRow = Omit<Teacher, 'reviews' | 'levels'> & { levels: string[]; reviews: Review[] | string };

/** Row → the API's shape. */
export function toTeacher(row: TeacherRow): Teacher {
  return {
    ...row,
    levels: row.levels as Level[],
    reviews: typeof row.reviews === 'string' ? (JSON.parse(row.reviews) as Review[]) : row.reviews,
  };
}

/** A teacher in a comparable form (what the API would return for it): every field, in order. */
export function comparableTeacher(t: Teacher): string {
  return JSON.stringify(
    TEACHER_API_FIELDS.map((field) =>
      field === 'reviews' ? t.reviews.map((r) => [r.reviewer_name, r.reviewer_rating, r.comment]) : t[field],
    ),
  );
}
