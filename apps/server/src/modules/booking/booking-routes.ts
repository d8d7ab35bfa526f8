import { apiErrorSchema, bookingCreatedSchema, bookingRequestSchema } from '@learnlingo/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../plugins/errors.js';
import { createBookingRepository } from './booking-repository.js';

export async function bookingRoutes(app: FastifyInstance): Promise<void> {
  const repository = createBookingRepository(app.db);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/bookings',
    {
      schema: {
        tags: ['bookings'],
        summary: 'Books a trial lesson (signed in or not; a signed-in booking is tied to the user)',
        body: bookingRequestSchema,
        response: { 201: bookingCreatedSchema, 400: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const user = await app.sessionUser(request);
      const created = await repository.create(request.body, user?.id ?? null);
      if (!created) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${request.body.teacherId}`);
      return reply.code(201).send(created);
    },
  );
}
