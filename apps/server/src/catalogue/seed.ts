import type { Database } from '../db/client.js';
import {
  bumpCatalogueVersion,
  countTeachers,
  insertNewRecords,
  refreshCatalogueStatistics,
} from './catalogue-writer.js';
import { GENERATOR_SEED, generateTeachers } from './generator.js';

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
      inserted += (await insertNewRecords(tx, records)).size;
    }
    if (inserted > 0) await bumpCatalogueVersion(tx);
  });
  if (inserted > 0) await refreshCatalogueStatistics(db);
  return { inserted, total: await countTeachers(db) };
}

/** First start: an empty catalogue gets `count` generated teachers. */
export async function seedIfEmpty(db: Database, count: number): Promise<SeedResult | null> {
  if (count <= 0 || (await countTeachers(db)) > 0) return null;
  return seedGenerated(db, count);
}
