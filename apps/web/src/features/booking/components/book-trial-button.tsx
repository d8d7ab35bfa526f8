import { lazy, Suspense, useState } from 'react';
import type { Teacher } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import styles from './booking.module.css';

// The form (react-hook-form, resolvers, zod rules) loads only when a booking modal first opens.
const loadBookingPanel = () => import('./booking-panel');
const BookingPanel = lazy(() => loadBookingPanel().then((module) => ({ default: module.BookingPanel })));

/** "Book trial lesson": opens the booking modal for this teacher. */
export function BookTrialButton({ teacher }: { teacher: Teacher }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        className={styles.trigger}
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadBookingPanel()}
        onFocus={() => void loadBookingPanel()}
      >
        Book trial lesson
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="Book trial lesson"
        description="Our experienced tutor will assess your current language level, discuss your learning goals, and tailor the lesson to your specific needs."
        maxWidth={600}
      >
        <Suspense fallback={<Spinner size={48} label="Loading the booking form" />}>
          <BookingPanel teacher={teacher} onBooked={() => setOpen(false)} />
        </Suspense>
      </Modal>
    </>
  );
}
