import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
  engine: z.enum(['pglite', 'postgres']),
  /**
   * The search index of the current catalogue (decision 095): `ready`, or `pending` (not built
   * yet for this catalogue version; a search begins its build, and the search statements
   * answer meanwhile).
   */
  searchIndex: z.enum(['ready', 'pending']),
});
export type Health = z.infer<typeof healthSchema>;
