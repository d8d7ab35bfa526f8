import { randomUUID } from 'node:crypto';
import type { BookingCreated, BookingRequest } from '@learnlingo/contract';
import { isForeignKeyViolation, type Database } from '../../db/client.js';
import { booking } from '../../db/schema.js';

export function createBookingRepository(db: Database) {
  return {
    /** null when the teacher does not exist */
    async create(input: BookingRequest, userId: string | null): Promise<BookingCreated | null> {
      try {
        const [row] = await db.orm
          .insert(booking)
          .values({
            id: randomUUID(),
            teacherId: input.teacherId,
            userId,
            reason: input.reason,
            fullName: input.fullName,
            email: input.email,
            phone: input.phone,
          })
          .returning({ id: booking.id, createdAt: booking.createdAt });
        if (!row) throw new Error('INSERT … RETURNING gave no row');
        return { id: row.id, createdAt: row.createdAt.toISOString() };
      } catch (error) {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      }
    },
  };
}
