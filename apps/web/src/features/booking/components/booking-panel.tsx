import type { BookingCreated, Teacher } from '@learnlingo/contract';
import { useAppSelector } from '../../../store';
import { selectFilters } from '../../teachers';
import { BookingForm } from './booking-form';
import { BookingTeacher } from './booking-teacher';

/** The modal's body (loaded lazily): who teaches, then the form. */
export function BookingPanel({ teacher, onBooked }: { teacher: Teacher; onBooked: (created: BookingCreated, timeZone: string) => void }) {
  const { language: filteredLanguage } = useAppSelector(selectFilters);
  // The language the visitor filtered by, when this teacher speaks it; else the teacher's first.
  const language = teacher.languages.includes(filteredLanguage) ? filteredLanguage : (teacher.languages[0] ?? 'a language');
  return (
    <>
      <BookingTeacher teacher={teacher} />
      <BookingForm teacherId={teacher.id} languages={teacher.languages} defaultLanguage={language} onBooked={onBooked} />
    </>
  );
}
export { BookingConfirmation } from './booking-confirmation';
