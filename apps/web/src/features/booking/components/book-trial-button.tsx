import { Suspense, useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import type { BookingCreated, Teacher } from '@learnlingo/contract';
import { lessonMessages } from '@learnlingo/contract/plain';
import { useAppSelector } from '../../../store';
import { buttonClassName } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { lazyChunk } from '../../../lib/lazy-chunk';
import { selectIsLoggedIn } from '../../auth';
import { selectFilters } from '../../teachers';
import { BOOKING_TEXT, BOOKING_TITLE } from '../booking-texts';
import styles from './booking.module.css';

// The form (react-hook-form, resolvers, zod rules) loads only when a booking modal first opens.
const loadBookingPanel = () => import('./booking-panel');
const BookingPanel = lazyChunk(() => loadBookingPanel().then((module) => ({ default: module.BookingPanel })));
const BookingConfirmation = lazyChunk(() => loadBookingPanel().then((module) => ({ default: module.BookingConfirmation })));

/** A plain click (no modifier, the main button) is the app's; any other keeps the link's meaning (a new tab…). */
function plainClick(event: MouseEvent): boolean {
  if (event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  event.preventDefault();
  return true;
}

/**
 * "Book trial lesson": a link to the teacher's booking page (/teachers/:id/book, which works
 * without JavaScript: decision 105) that, once the app runs, opens the booking modal for this
 * teacher instead; once booked, the confirmation.
 */
export function BookTrialButton({ teacher }: { teacher: Teacher }) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const { language } = useAppSelector(selectFilters);
  const [open, setOpen] = useState(false);
  const [booked, setBooked] = useState<{ created: BookingCreated; timeZone: string } | null>(null);
  // the page asks about the language the list was filtered by, as the modal does
  const query = language && teacher.languages.includes(language) ? `?${new URLSearchParams({ language }).toString()}` : '';
  return (
    <>
      <Link
        to={`/teachers/${encodeURIComponent(teacher.id)}/book${query}`}
        className={buttonClassName('primary', false, styles.trigger)}
        onClick={(event) => plainClick(event) && setOpen(true)}
        onPointerEnter={() => void loadBookingPanel()}
        onFocus={() => void loadBookingPanel()}
      >
        {BOOKING_TITLE}
      </Link>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title={BOOKING_TITLE}
        description={BOOKING_TEXT}
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
        title={
          booked?.created.lesson.status === 'pending'
            ? lessonMessages.checkEmail
            : booked?.created.lesson.status === 'requested'
              ? 'Your request is sent'
              : 'Your trial lesson is booked'
        }
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
