import { openAsBlob } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { createTestDatabase, testEngine } from '../test/db.js';
import { openDatabase } from './client.js';

describe.runIf(testEngine === 'pglite')('the embedded database (PGlite)', () => {
  it("starts with PostgreSQL's 128MB of shared buffers, or the size asked for", async () => {
    const plain = await openDatabase({ engine: 'pglite', dataDir: 'memory', from: await openAsBlob(inject('pgliteTemplate')) });
    try {
      expect(await plain.rows(sql`show shared_buffers`)).toEqual([{ shared_buffers: '128MB' }]);
    } finally {
      await plain.close();
    }
    // the tests' databases ask for 16MB: PGlite zeroes the buffers at every start
    const { db, drop } = await createTestDatabase();
    try {
      expect(await db.rows(sql`show shared_buffers`)).toEqual([{ shared_buffers: '16MB' }]);
      // the defaults PGlite starts with are kept beside it
      expect(await db.rows(sql`show search_path`)).toEqual([{ search_path: 'public' }]);
    } finally {
      await drop();
    }
  });
});
