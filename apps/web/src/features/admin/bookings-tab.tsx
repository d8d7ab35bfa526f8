import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { adminCancelSchema, type AdminBooking } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import type { ConsoleTabPage } from './console-layout-parts';
import { useLive } from './teacher-form-fields';
import { fieldErrors, formError, staffConsoleApi, useCancelStaffBookingMutation, useGetStaffBookingsQuery } from './teachers-api';
import { Pager } from './teachers-table';
import styles from './teachers-tab.module.css';

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'pending', label: 'Waiting for confirmation' },
  { value: 'past', label: 'Past' },
  { value: 'cancelled', label: 'Cancelled' },
] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TEACHER = /^[A-Za-z0-9_-]{1,64}$/;

/** The filters from the URL (malformed values are dropped, not sent). */
export function bookingsQueryOf(params: URLSearchParams) {
  const pick = (key: string, pattern: RegExp) => {
    const value = (params.get(key) ?? '').slice(0, 64);
    return pattern.test(value) ? value : undefined;
  };
  const status = STATUS_OPTIONS.some((o) => o.value && o.value === params.get('status')) ? (params.get('status') as 'upcoming') : undefined;
  const page = Number(params.get('page') ?? '1');
  return { teacherId: pick('teacherId', TEACHER), from: pick('from', DAY), to: pick('to', DAY), status, page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1 };
}

const when = (iso: string | null) =>
  iso ? new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso)) + ' UTC' : 'To be agreed';

/** Cancel with a reason: the learner and the teacher are e-mailed. */
function CancelBooking({ booking }: { booking: AdminBooking }) {
  const [open, setOpen] = useState(false);
  const [cancel, { isLoading }] = useCancelStaffBookingMutation();
  const [error, setError] = useState<string | undefined>();
  const live = useLive();
  if (!['upcoming', 'pending', 'unscheduled'].includes(booking.status)) return null;
  if (!open) {
    return (
      <Button variant="secondary" disabled={!live} onClick={() => setOpen(true)} aria-label={`Cancel the lesson of ${booking.learner.fullName}`}>
        Cancel…
      </Button>
    );
  }
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = adminCancelSchema.safeParse({ reason: String(new FormData(event.currentTarget).get('reason') ?? '') });
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    const result = await cancel({ id: booking.id, reason: checked.data.reason });
    if ('error' in result) setError(fieldErrors(result.error).reason ?? formError(result.error));
  };
  return (
    <form className={styles.cancelForm} onSubmit={(event) => void onSubmit(event)} noValidate>
      <TextField label="Reason (sent to both)" name="reason" maxLength={500} error={error} autoFocus />
      <div className={styles.actions}>
        <Button type="submit" variant="dark" disabled={isLoading}>
          Cancel lesson
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Keep it
        </Button>
      </div>
    </form>
  );
}

function BookingsTab() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const query = bookingsQueryOf(params);
  const { data, isError } = useGetStaffBookingsQuery(query);
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const key of ['teacherId', 'from', 'to', 'status']) {
      const value = String(form.get(key) ?? '').trim();
      if (value) next.set(key, value);
    }
    void navigate(`/admin/bookings${next.size ? `?${next.toString()}` : ''}`);
  };
  const pathFor = (page: number) => {
    const next = new URLSearchParams(params);
    if (page === 1) next.delete('page');
    else next.set('page', String(page));
    return `/admin/bookings?${next.toString()}`;
  };
  const key = params.toString();
  return (
    <div>
      <div className={styles.header}>
        <h2 className={styles.title}>Bookings</h2>
      </div>
      <form className={styles.toolbar} method="get" action="/admin/bookings" onSubmit={onFilter} aria-label="Filter bookings" key={key}>
        <TextField label="Teacher id" name="teacherId" defaultValue={query.teacherId ?? ''} maxLength={64} />
        <TextField label="From" name="from" type="date" defaultValue={query.from ?? ''} />
        <TextField label="To" name="to" type="date" defaultValue={query.to ?? ''} />
        <Select label="Status" name="status" options={STATUS_OPTIONS} defaultValue={query.status ?? ''} />
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </form>
      {!data ? (
        isError ? <p className={styles.error}>The bookings could not be loaded.</p> : <Spinner label="Loading bookings" />
      ) : data.items.length === 0 ? (
        <p className={styles.muted}>No lesson matches.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stack}`}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Teacher</th>
                <th scope="col">Learner</th>
                <th scope="col">Status</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((b) => (
                <tr key={b.id}>
                  <td data-label="When">{when(b.start)}</td>
                  {/* (one element per cell: on a phone the cell is a grid of its label and its value) */}
                  <td data-label="Teacher">
                    <div>
                      {b.teacher.name} {b.teacher.surname}
                      <br />
                      <span className={styles.muted}>{b.language ?? ''}</span>
                    </div>
                  </td>
                  <td data-label="Learner">
                    <div>
                      {b.learner.fullName}
                      <br />
                      <span className={styles.muted}>{b.learner.email}</span>
                    </div>
                  </td>
                  <td data-label="Status">
                    <span className={styles.badge}>{b.status}</span>
                  </td>
                  <td data-label="Action">
                    <CancelBooking booking={b} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data ? <Pager data={data} pathFor={pathFor} /> : null}
    </div>
  );
}

/** /admin/bookings: fetched on the server with its filters. */
export const bookingsTab: ConsoleTabPage = {
  Component: BookingsTab,
  prefetch: async ({ dispatch, searchParams, rest }) => {
    if (rest !== '') return 'not-found';
    await dispatch(staffConsoleApi.endpoints.getStaffBookings.initiate(bookingsQueryOf(searchParams)));
    return undefined;
  },
};
