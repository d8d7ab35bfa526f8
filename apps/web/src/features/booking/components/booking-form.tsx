import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { bookingFormSchema, BOOKING_REASONS, toastMessages, type BookingFormInput } from '@learnlingo/contract';
import { useAppSelector } from '../../../app/hooks';
import { Button } from '../../../components/ui/button';
import { RadioGroup } from '../../../components/ui/radio-group';
import { TextField } from '../../../components/ui/text-field';
import { errorFields, errorStatus, genericErrorMessage, type RequestError } from '../../../lib/api-error';
import { showToast } from '../../../lib/toast';
import { selectIsLoggedIn, selectUser } from '../../auth/auth-slice';
import { useCreateBookingMutation } from '../api/booking-api';
import styles from './booking.module.css';

const FIELDS = ['reason', 'fullName', 'email', 'phone'] as const satisfies readonly (keyof BookingFormInput)[];

/** The server's field errors (`{error:{fields}}` of a 400), keyed by form field. */
function serverFieldErrors(error: RequestError): Partial<Record<keyof BookingFormInput, string>> {
  const fields = errorFields(error);
  return Object.fromEntries(FIELDS.filter((field) => fields[field]).map((field) => [field, fields[field]]));
}

function failureMessage(error: RequestError): string {
  const status = errorStatus(error);
  if (status === 400) return genericErrorMessage(error);
  if (status !== undefined && status >= 500) return toastMessages.bookingFailed;
  return genericErrorMessage(error);
}

interface BookingFormProps {
  teacherId: string;
  /** the language in the question "What is your main reason for learning …?" */
  language: string;
  onBooked: () => void;
}

export function BookingForm({ teacherId, language, onBooked }: BookingFormProps) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const user = useAppSelector(selectUser);
  const [createBooking] = useCreateBookingMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(bookingFormSchema),
    mode: 'all',
    defaultValues: {
      fullName: isLoggedIn ? user.name : '',
      email: isLoggedIn ? user.email : '',
      phone: '',
    },
  });

  const onSubmit = async (values: BookingFormInput) => {
    const result = await createBooking({ teacherId, ...values });
    if (!result.error) {
      void showToast('success', toastMessages.bookingSuccess);
      onBooked();
      return;
    }
    // Keep everything typed; put the server's field errors under their fields.
    for (const [field, message] of Object.entries(serverFieldErrors(result.error))) {
      setError(field as keyof BookingFormInput, { type: 'server', message });
    }
    void showToast('error', failureMessage(result.error));
  };

  return (
    <form className={styles.form} noValidate onSubmit={(event) => void handleSubmit(onSubmit)(event)}>
      <RadioGroup
        legend={`What is your main reason for learning ${language}?`}
        options={BOOKING_REASONS}
        error={errors.reason?.message}
        {...register('reason')}
      />
      <div className={styles.fields}>
        <TextField label="Full Name" hideLabel placeholder="Full Name" autoComplete="name" error={errors.fullName?.message} {...register('fullName')} />
        <TextField label="Email" hideLabel placeholder="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
        <TextField label="Phone number" hideLabel placeholder="Phone number" type="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
      </div>
      <Button type="submit" fullWidth disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
        Book
      </Button>
    </form>
  );
}
