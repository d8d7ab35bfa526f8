import { z } from 'zod';
import { validationMessages as m } from './messages.js';
import { emailSchema } from './auth.js';
import { CONTROL_CHARACTER_MESSAGE, hasControlCharacter } from './rules.js';
import { teacherIdSchema } from './teachers.js';

export const BOOKING_REASONS = [
  'Career and business',
  'Lesson for kids',
  'Living abroad',
  'Exams and coursework',
  'Culture, travel or hobby',
] as const;
export const bookingReasonSchema = z.enum(BOOKING_REASONS, { error: m.reasonRequired });
export type BookingReason = z.infer<typeof bookingReasonSchema>;

/** 7 to 15 digits, optional leading +, spaces, dashes and brackets allowed. */
export const PHONE_PATTERN = /^\+?[\d\s\-()]+$/;

const noControl = { error: CONTROL_CHARACTER_MESSAGE, abort: true } as const;

export const phoneSchema = z
  .string({ error: m.phoneRequired })
  .max(120, { error: m.phoneInvalid, abort: true })
  .trim()
  .min(1, m.phoneRequired)
  .max(30, { error: m.phoneInvalid, abort: true })
  .refine((v) => !hasControlCharacter(v), noControl)
  .refine((v) => {
    if (!PHONE_PATTERN.test(v)) return false;
    const digits = v.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 15;
  }, m.phoneInvalid);

export const fullNameSchema = z
  .string({ error: m.fullNameRequired })
  .max(400, { error: 'Full name must be at most 100 characters', abort: true })
  .trim()
  .min(1, m.fullNameRequired)
  .max(100, { error: 'Full name must be at most 100 characters', abort: true })
  .refine((v) => !hasControlCharacter(v), noControl);

/** The booking form's fields (the teacher comes from the card). */
export const bookingFormSchema = z.object({
  reason: bookingReasonSchema,
  fullName: fullNameSchema,
  email: emailSchema,
  phone: phoneSchema,
});
export type BookingFormInput = z.infer<typeof bookingFormSchema>;

/** POST /api/bookings body. */
export const bookingRequestSchema = bookingFormSchema.extend({ teacherId: teacherIdSchema }).strict();
export type BookingRequest = z.infer<typeof bookingRequestSchema>;

/** POST /api/bookings → 201. */
export const bookingCreatedSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
});
export type BookingCreated = z.infer<typeof bookingCreatedSchema>;
