import type { Teacher } from '@learnlingo/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { isForeignKeyViolation, type Database } from '../../db/client.js';
import { favorite, teacher } from '../../db/schema.js';
import { teacherFields, toTeacher, type TeacherRow } from '../../catalogue/index.js';

/** Every query is scoped by the user id from the session: no other user's rows are reachable. */
export function createFavoritesRepository(db: Database) {
  const listStatement = db.orm
    .select(teacherFields)
    .from(favorite)
    .innerJoin(teacher, eq(teacher.id, favorite.teacherId))
    // a hidden teacher (decision 107) is kept in the favourites, and shown again once unhidden
    .where(and(eq(favorite.userId, sql.placeholder('userId')), eq(teacher.hidden, false)))
    .orderBy(desc(favorite.createdAt), desc(favorite.teacherId))
    .prepare('favorites_list');

  return {
    async list(userId: string): Promise<Teacher[]> {
      return ((await listStatement.execute({ userId })) as TeacherRow[]).map(toTeacher);
    },

    /** false when the teacher does not exist, or is hidden (no page, in no list) */
    async add(userId: string, teacherId: string): Promise<boolean> {
      const [shown] = await db.orm
        .select({ id: teacher.id })
        .from(teacher)
        .where(and(eq(teacher.id, teacherId), eq(teacher.hidden, false)));
      if (!shown) return false;
      try {
        await db.orm.insert(favorite).values({ userId, teacherId }).onConflictDoNothing();
        return true;
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },

    async remove(userId: string, teacherId: string): Promise<void> {
      await db.orm.delete(favorite).where(and(eq(favorite.userId, userId), eq(favorite.teacherId, teacherId)));
    },
  };
}
