import { z } from 'zod';

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
  engine: z.enum(['pglite', 'postgres']),
  /**
   * The search index of the current catalogue (decisions 095, 096): `ready`, or `pending` (not
   * built yet for this catalogue version; a list or a search begins its build, and the list
   * and search statements answer meanwhile).
   */
  searchIndex: z.enum(['ready', 'pending']),
});
export type Health = z.infer<typeof healthSchema>;
