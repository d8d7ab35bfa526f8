import type { Level, Review, Teacher } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { teacher } from '../../db/schema.js';

/**
 * The columns of one teacher as the API returns it, reviews included (aggregated in the
 * same query, ordered by position), so a page is one round trip.
 */
export const teacherFields = {
  id: teacher.id,
  name: teacher.name,
  surname: teacher.surname,
  languages: teacher.languages,
  levels: teacher.levels,
  rating: teacher.rating,
  pricePerHour: teacher.pricePerHour,
  lessonsDone: teacher.lessonsDone,
  avatarUrl: teacher.avatarUrl,
  lessonInfo: teacher.lessonInfo,
  conditions: teacher.conditions,
  experience: teacher.experience,
  reviews: sql<Review[] | string>`coalesce((
    select json_agg(json_build_object(
      'reviewer_name', r.reviewer_name,
      'reviewer_rating', r.reviewer_rating,
      'comment', r.comment) order by r.position)
    from review r where r.teacher_id = "teacher"."id"), '[]'::json)`,
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
export const teacherCardJson = sql<string>`(select row_to_json(t)::text from (select
      "teacher"."id", "teacher"."name", "teacher"."surname", "teacher"."languages", "teacher"."levels",
      "teacher"."rating",
      coalesce((
        select json_agg((select r from (select rv.reviewer_name, rv.reviewer_rating, rv.comment) r) order by rv.position)
        from review rv where rv.teacher_id = "teacher"."id"), '[]'::json) as reviews,
      "teacher"."price_per_hour", "teacher"."lessons_done", "teacher"."avatar_url", "teacher"."lesson_info",
      "teacher"."conditions", "teacher"."experience") t)`;

/** One list row: a teacher's card and its position in the page's order (the keyset cursor's). */
export interface TeacherJsonRow {
  /** the order's value (rating, price, lessons done, relevance) */
  value: number;
  id: string;
  /** one teacher, JSON text in teacherSchema's shape */
  json: string;
}

export interface TeacherRow {
  id: string;
  name: string;
  surname: string;
  languages: string[];
  levels: string[];
  rating: number;
  pricePerHour: number;
  lessonsDone: number;
  avatarUrl: string | null;
  lessonInfo: string;
  conditions: string[];
  experience: string;
  reviews: Review[] | string;
}

/** Row → the API's shape (the original's snake_case field names). */
export function toTeacher(row: TeacherRow): Teacher {
  return {
    id: row.id,
    name: row.name,
    surname: row.surname,
    languages: row.languages,
    levels: row.levels as Level[],
    rating: row.rating,
    reviews: typeof row.reviews === 'string' ? (JSON.parse(row.reviews) as Review[]) : row.reviews,
    price_per_hour: row.pricePerHour,
    lessons_done: row.lessonsDone,
    avatar_url: row.avatarUrl,
    lesson_info: row.lessonInfo,
    conditions: row.conditions,
    experience: row.experience,
  };
}
