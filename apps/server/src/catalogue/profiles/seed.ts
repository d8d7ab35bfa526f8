import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.js';
import { teacherAvailability } from '../../db/schema.js';
import {
  bumpCatalogueVersion,
  countTeachers,
  insertNewRecords,
  refreshCatalogueStatistics,
} from '../sql/catalogue-writer.js';
import { GENERATOR_SEED, generateAvailability, generateTeachers } from './generator.js';

const GENERATE_BATCH = 5000;

export interface SeedResult {
  inserted: number;
  total: number;
}

/**
 * Makes sure generated teachers 1..count exist (ids t000001…): the missing ones are
 * inserted, existing ids are left alone. One transaction, batched multi-row inserts.
 */
export async function seedGenerated(db: Database, count: number, seed = GENERATOR_SEED): Promise<SeedResult> {
  let inserted = 0;
  await db.orm.transaction(async (tx) => {
    for (let from = 1; from <= count; from += GENERATE_BATCH) {
      const to = Math.min(count, from + GENERATE_BATCH - 1);
      const records = [...generateTeachers(from, to, seed)];
      const added = await insertNewRecords(tx, records);
      inserted += added.size;
      await insertAvailability(tx, from, to, seed, added);
    }
    if (inserted > 0) await bumpCatalogueVersion(tx);
  });
  if (inserted > 0) await refreshCatalogueStatistics(db);
  return { inserted, total: await countTeachers(db) };
}

/** The generated time zone and hours of the teachers just added (ids in `added`). */
async function insertAvailability(tx: Db, from: number, to: number, seed: number, added: Set<string>): Promise<void> {
  const rows = [];
  for (let n = from; n <= to; n += 1) {
    const availability = generateAvailability(n, seed);
    if (added.has(availability.teacherId)) rows.push(availability);
  }
  if (rows.length === 0) return;
  // one statement per batch: json_populate_recordset keeps the parameter count at one
  const json = JSON.stringify(rows.map((r) => ({ teacher_id: r.teacherId, time_zone: r.timeZone, weekly_hours: r.weeklyHours })));
  await tx.execute(
    sql`insert into ${teacherAvailability} (teacher_id, time_zone, weekly_hours)
        select teacher_id, time_zone, weekly_hours from json_populate_recordset(null::teacher_availability, ${json}::json)
        on conflict (teacher_id) do nothing`,
  );
}

/** First start: an empty catalogue gets `count` generated teachers. */
export async function seedIfEmpty(db: Database, count: number): Promise<SeedResult | null> {
  if (count <= 0 || (await countTeachers(db)) > 0) return null;
  return seedGenerated(db, count);
}
