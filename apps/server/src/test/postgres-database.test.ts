import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testEngine } from './db.js';
import { createPostgresDatabase } from './postgres-database.js';

describe.skipIf(testEngine !== 'postgres')(
  'a test database whose migration fails (PostgreSQL only: PGlite databases live in memory and leave nothing behind)',
  () => {
    const adminUrl = process.env.TEST_DATABASE_URL as string;
    const admin = new pg.Client({ connectionString: adminUrl });
    afterAll(() => admin.end());

    it('is dropped, not left on the server', async () => {
      await admin.connect();
      // a template whose tables exist but whose migrations record says none ran: migrating a copy fails
      const broken = await createPostgresDatabase(adminUrl, { prefix: 'll_broken', poolSize: 1 });
      try {
        await broken.db.orm.execute(sql.raw('drop schema drizzle cascade'));
        await broken.db.close();
        const template = new URL(broken.url).pathname.slice(1);
        await expect(createPostgresDatabase(adminUrl, { prefix: 'll_leak', template, poolSize: 1 })).rejects.toThrow();
        const left = await admin.query("select datname from pg_database where datname like 'll\\_leak\\_%'");
        expect(left.rows).toEqual([]);
      } finally {
        await broken.drop().catch(() => {});
      }
    });
  },
);
