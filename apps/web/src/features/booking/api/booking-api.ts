import type { BookingCreated, BookingRequest } from '@learnlingo/contract';
import { bookingCreatedSchema } from '@learnlingo/contract';
import { api } from '../../../lib/api';

export const bookingApi = api.injectEndpoints({
  endpoints: (build) => ({
    createBooking: build.mutation<BookingCreated, BookingRequest>({
      query: (body) => ({ url: '/bookings', method: 'POST', body }),
      responseSchema: bookingCreatedSchema,
    }),
  }),
});

export const { useCreateBookingMutation } = bookingApi;
