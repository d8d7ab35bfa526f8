import { Suspense, useState } from 'react';
import { lessonMessages, type BookingCreated, type Teacher } from '@learnlingo/contract';
import { useAppSelector } from '../../../store';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { lazyChunk } from '../../../lib/lazy-chunk';
import { selectIsLoggedIn } from '../../auth';
import styles from './booking.module.css';

// The form (react-hook-form, resolvers, zod rules) loads only when a booking modal first opens.
const loadBookingPanel = () => import('./booking-panel');
const BookingPanel = lazyChunk(() => loadBookingPanel().then((module) => ({ default: module.BookingPanel })));
const BookingConfirmation = lazyChunk(() => loadBookingPanel().then((module) => ({ default: module.BookingConfirmation })));

/** "Book trial lesson": opens the booking modal for this teacher; once booked, the confirmation. */
export function BookTrialButton({ teacher }: { teacher: Teacher }) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const [open, setOpen] = useState(false);
  const [booked, setBooked] = useState<{ created: BookingCreated; timeZone: string } | null>(null);
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
          <BookingPanel
            teacher={teacher}
            onBooked={(created, timeZone) => {
              setOpen(false);
              setBooked({ created, timeZone });
            }}
          />
        </Suspense>
      </Modal>
      <Modal
        open={booked !== null}
        onClose={() => setBooked(null)}
        // a visitor's booking waits for the link in its e-mail (decision 102)
        title={booked?.created.lesson.status === 'pending' ? lessonMessages.checkEmail : 'Your trial lesson is booked'}
        maxWidth={600}
      >
        {booked ? (
          <Suspense fallback={<Spinner size={48} label="Loading" />}>
            <BookingConfirmation created={booked.created} timeZone={booked.timeZone} isLoggedIn={isLoggedIn} onDone={() => setBooked(null)} />
          </Suspense>
        ) : null}
      </Modal>
    </>
  );
}
