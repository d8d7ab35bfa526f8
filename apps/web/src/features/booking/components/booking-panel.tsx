import type { BookingCreated, Teacher } from '@learnlingo/contract';
import { useAppSelector } from '../../../store';
import { selectFilters, TeacherAvatar } from '../../teachers';
import { BookingForm } from './booking-form';
import styles from './booking.module.css';

/** The modal's body (loaded lazily): who teaches, then the form. */
export function BookingPanel({ teacher, onBooked }: { teacher: Teacher; onBooked: (created: BookingCreated, timeZone: string) => void }) {
  const { language: filteredLanguage } = useAppSelector(selectFilters);
  // The language the visitor filtered by, when this teacher speaks it; else the teacher's first.
  const language = teacher.languages.includes(filteredLanguage) ? filteredLanguage : (teacher.languages[0] ?? 'a language');
  const name = `${teacher.name} ${teacher.surname}`;
  return (
    <>
      <div className={styles.teacher}>
        <TeacherAvatar teacherId={teacher.id} source={teacher.avatar_url} name={name} size={44} />
        <div>
          <p className={styles.teacherLabel}>Your teacher</p>
          <p className={styles.teacherName}>{name}</p>
        </div>
      </div>
      <BookingForm teacherId={teacher.id} languages={teacher.languages} defaultLanguage={language} onBooked={onBooked} />
    </>
  );
}
export { BookingConfirmation } from './booking-confirmation';
