import { z } from 'zod';
import { teacherIdSchema, teacherSchema } from './teachers.js';

export const favoriteParamsSchema = z.object({ teacherId: teacherIdSchema });

/** GET /api/favorites: the signed-in user's favourites, newest first. */
export const favoritesSchema = z.object({ items: z.array(teacherSchema) });
export type Favorites = z.infer<typeof favoritesSchema>;

/** PUT/DELETE /api/favorites/:teacherId (idempotent). */
export const favoriteStateSchema = z.object({
  teacherId: teacherIdSchema,
  favorite: z.boolean(),
});
export type FavoriteState = z.infer<typeof favoriteStateSchema>;
