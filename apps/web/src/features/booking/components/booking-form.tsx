import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  bookingFormSchema,
  BOOKING_REASONS,
  lessonMessages,
  toastMessages,
  tooManyBookingsMessage,
  type BookingCreated,
} from '@learnlingo/contract';
import { useAppSelector } from '../../../store';
import { Button } from '../../../components/ui/button';
import { RadioGroup } from '../../../components/ui/radio-group';
import { Select } from '../../../components/ui/select';
import { TextField } from '../../../components/ui/text-field';
import { errorCode, errorFields, errorRetryAfter, errorStatus, genericErrorMessage, type RequestError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { selectIsLoggedIn, selectUser } from '../../auth';
import { useCreateBookingMutation, useGetSlotsQuery } from '../api/booking-api';
import { browserTimeZone } from '../lib/lesson-time';
import { SlotPicker } from './slot-picker';
import styles from './booking.module.css';

/** The form's rules: the original's fields, the lesson time and its language. */
const scheduledFormSchema = bookingFormSchema.extend({
  start: z.string({ error: lessonMessages.slotRequired }).min(1, lessonMessages.slotRequired),
  language: z.string().min(1),
});
type ScheduledFormInput = z.infer<typeof scheduledFormSchema>;

const FIELDS = ['reason', 'fullName', 'email', 'phone', 'start', 'language'] as const satisfies readonly (keyof ScheduledFormInput)[];

/** The server's field errors (`{error:{fields}}` of a 400), keyed by form field. */
function serverFieldErrors(error: RequestError): Partial<Record<keyof ScheduledFormInput, string>> {
  const fields = errorFields(error);
  return Object.fromEntries(FIELDS.filter((field) => fields[field]).map((field) => [field, fields[field]]));
}

function failureMessage(error: RequestError): string {
  const status = errorStatus(error);
  if (status !== undefined && status >= 500) return toastMessages.bookingFailed;
  // the booking limits (decision 102): how long, in the booking's own words
  const wait = status === 429 ? errorRetryAfter(error) : undefined;
  if (wait !== undefined) return tooManyBookingsMessage(wait);
  return genericErrorMessage(error);
}

interface BookingFormProps {
  teacherId: string;
  /** the teacher's languages; the learner chooses when there are several */
  languages: readonly string[];
  /** the language chosen first (the catalogue's filter, else the teacher's first) */
  defaultLanguage: string;
  onBooked: (created: BookingCreated, timeZone: string) => void;
}

export function BookingForm({ teacherId, languages, defaultLanguage, onBooked }: BookingFormProps) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const user = useAppSelector(selectUser);
  const [timeZone, setTimeZone] = useState(browserTimeZone);
  const slots = useGetSlotsQuery(teacherId, { refetchOnMountOrArgChange: true });
  const [createBooking] = useCreateBookingMutation();
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(scheduledFormSchema),
    mode: 'all',
    defaultValues: {
      fullName: isLoggedIn ? user.name : '',
      email: isLoggedIn ? user.email : '',
      phone: '',
      start: '',
      language: defaultLanguage,
    },
  });
  const language = watch('language');

  const onSubmit = async ({ language: chosen, ...values }: ScheduledFormInput) => {
    const result = await createBooking({ teacherId, ...values, timeZone, ...(languages.includes(chosen) ? { language: chosen } : {}) });
    if (!result.error) {
      void showToast('success', toastMessages.bookingSuccess);
      onBooked(result.data, timeZone);
      return;
    }
    if (errorCode(result.error) === 'SLOT_TAKEN') {
      // Someone else was first: fresh times, the same form, a clear word under the picker.
      setValue('start', '');
      setError('start', { type: 'server', message: lessonMessages.slotTaken }, { shouldFocus: true });
      void slots.refetch();
      void showToast('error', lessonMessages.slotTaken);
      return;
    }
    // Keep everything typed; put the server's field errors under their fields.
    for (const [field, message] of Object.entries(serverFieldErrors(result.error))) {
      setError(field as keyof ScheduledFormInput, { type: 'server', message });
    }
    if (errorFields(result.error).start) void slots.refetch();
    void showToast('error', failureMessage(result.error));
  };

  return (
    <form className={styles.form} noValidate onSubmit={(event) => void handleSubmit(onSubmit)(event)}>
      {languages.length > 1 ? (
        <Select label="Lesson language" options={languages.map((l) => ({ value: l, label: l }))} {...register('language')} />
      ) : null}
      <RadioGroup
        legend={`What is your main reason for learning ${language}?`}
        options={BOOKING_REASONS}
        error={errors.reason?.message}
        {...register('reason')}
      />
      <Controller
        control={control}
        name="start"
        render={({ field }) => (
          <SlotPicker
            ref={field.ref}
            slots={slots.data?.slots ?? []}
            teacherTimeZone={slots.data?.timeZone}
            timeZone={timeZone}
            onTimeZoneChange={setTimeZone}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={errors.start?.message}
            isLoading={slots.isLoading}
            isError={slots.isError && !slots.data}
            onRetry={() => void slots.refetch()}
          />
        )}
      />
      <div className={styles.fields}>
        <TextField label="Full Name" placeholder="Full Name" autoComplete="name" error={errors.fullName?.message} {...register('fullName')} />
        <TextField label="Email" placeholder="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        <TextField label="Phone number" placeholder="Phone number" type="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
      </div>
      <Button type="submit" fullWidth disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
        Book
      </Button>
    </form>
  );
}
