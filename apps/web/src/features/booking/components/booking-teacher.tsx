import type { Teacher } from '@learnlingo/contract';
import { TeacherAvatar } from '../../teachers';
import styles from './booking.module.css';

/** Who teaches the lesson being booked: the modal's and the booking page's "Your teacher". */
export function BookingTeacher({ teacher, className }: { teacher: Teacher; className?: string }) {
  const name = `${teacher.name} ${teacher.surname}`;
  return (
    <div className={className ? `${styles.teacher} ${className}` : styles.teacher}>
      <TeacherAvatar teacherId={teacher.id} source={teacher.avatar_url} name={name} size={44} />
      <div>
        <p className={styles.teacherLabel}>Your teacher</p>
        <p className={styles.teacherName}>{name}</p>
      </div>
    </div>
  );
}
