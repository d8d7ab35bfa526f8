import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { BOOKING_REASONS, lessonMessages, type Teacher } from '@learnlingo/contract';
import { toastMessages, type FormEcho } from '@learnlingo/contract/plain';
import { useAppSelector } from '../../../store';
import { Button } from '../../../components/ui/button';
import { ButtonLink } from '../../../components/ui/button-link';
import { EmptyState } from '../../../components/ui/empty-state';
import { RadioGroup } from '../../../components/ui/radio-group';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { useHead } from '../../../lib/head';
import { errorStatus } from '../../../lib/api-error';
import { selectIsLoggedIn, selectUser } from '../../auth';
import { useGetTeacherQuery } from '../../teachers';
import { useGetBookingEchoQuery, useGetSlotsQuery } from '../api/booking-api';
import { BOOKING_TEXT, BOOKING_TITLE } from '../booking-texts';
import { useBrowserTimeZone } from '../hooks/use-browser-time-zone';
import { dayKey, formatDay, formatTime, isTimeZone, pageTimeZones, zoneLabel } from '../lib/lesson-time';
import { BookingConfirmation } from './booking-confirmation';
import { BookingTeacher } from './booking-teacher';
import styles from './booking.module.css';
import { requestTexts } from '../lib/request-texts';

/** The zone the page's times are in: `?tz=` (the page's own zone form), else the browser's (UTC on the server). */
function usePageTimeZone(): string {
  const [search] = useSearchParams();
  const browser = useBrowserTimeZone();
  const asked = search.get('tz');
  return asked && isTimeZone(asked) ? asked : browser;
}

/** Free starts grouped by the learner's calendar day. */
function byDay(slots: readonly string[], timeZone: string) {
  const days = new Map<string, string[]>();
  for (const slot of slots) {
    const key = dayKey(slot, timeZone);
    days.set(key, [...(days.get(key) ?? []), slot]);
  }
  return [...days.entries()].map(([key, starts]) => ({ key, label: formatDay(starts[0]!, timeZone), starts }));
}

interface BookingPageFormProps {
  teacher: Teacher;
  echo: FormEcho | null;
  timeZone: string;
}

/**
 * The booking modal's form as a page's (decision 105): the same fields, labels, placeholders
 * and (the server's, from the same rules) messages, posted by the browser itself; the times
 * are radio buttons grouped by day. A refused post comes back with what was typed.
 */
function BookingPageForm({ teacher, echo, timeZone }: BookingPageFormProps) {
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const user = useAppSelector(selectUser);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const slots = useGetSlotsQuery(teacher.id, { refetchOnMountOrArgChange: true });
  const formRef = useRef<HTMLFormElement>(null);
  const zoneFormId = `${useId()}-zone`;
  const errors = echo?.errors ?? {};
  const values = echo?.values ?? {};

  const asked = values.language ?? search.get('language') ?? '';
  const [language, setLanguage] = useState(teacher.languages.includes(asked) ? asked : (teacher.languages[0] ?? 'a language'));
  const [start, setStart] = useState(values.start ?? '');
  // a time or language chosen before the app ran is kept (the days may regroup in the browser's zone)
  useEffect(() => {
    const form = formRef.current;
    const checked = form?.querySelector<HTMLInputElement>('input[name="start"]:checked');
    if (checked) setStart(checked.value);
    const chosen = form?.querySelector<HTMLSelectElement>('select[name="language"]');
    if (chosen) setLanguage(chosen.value);
  }, []);

  const free = slots.data?.slots;
  const days = useMemo(() => byDay(free ?? [], timeZone), [free, timeZone]);
  const at = free?.[0] ? new Date(free[0]) : undefined;
  const zones = pageTimeZones(timeZone, slots.data?.timeZone).map((zone) => ({ value: zone, label: zoneLabel(zone, at) }));
  const action = `/teachers/${encodeURIComponent(teacher.id)}/book`;
  const startErrorId = `${zoneFormId}-start-error`;
  const message = echo?.message ?? errors.language;

  return (
    <>
      <form ref={formRef} className={styles.form} method="post" action={action} noValidate>
        <input type="hidden" name="timeZone" value={timeZone} />
        {teacher.languages.length > 1 ? (
          <Select
            label="Lesson language"
            outlined
            name="language"
            options={teacher.languages.map((l) => ({ value: l, label: l }))}
            defaultValue={language}
            onChange={(event) => setLanguage(event.target.value)}
          />
        ) : null}
        <RadioGroup
          legend={`What is your main reason for learning ${language}?`}
          name="reason"
          options={BOOKING_REASONS}
          defaultOption={values.reason ?? ''}
          error={errors.reason}
        />
        <fieldset className={styles.bookPicker} aria-describedby={errors.start ? startErrorId : undefined}>
          <legend className={styles.bookLegend}>Choose a time</legend>
          <div className={styles.bookZones}>
            <div className={styles.bookZoneRow}>
              <Select
                label="Times shown in"
                outlined
                name="tz"
                form={zoneFormId}
                options={zones}
                value={timeZone}
                // with the app running, a zone applies at once (without, "Show times" sends the zone's form)
                onChange={(event) => {
                  const next = new URLSearchParams(search);
                  next.set('tz', event.target.value);
                  void navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
                }}
              />
              <Button type="submit" variant="secondary" form={zoneFormId} className={styles.bookShowTimes}>
                Show times
              </Button>
            </div>
            {slots.data ? <p className={styles.bookMuted}>The teacher’s time zone: {zoneLabel(slots.data.timeZone, at)}</p> : null}
          </div>
          {slots.isLoading ? (
            <Spinner size={40} label="Loading the free times" />
          ) : !slots.data ? (
            <p className={styles.bookMuted} role="alert">
              Could not load the free times. <Link to={`${action}?${search.toString()}`}>Try again</Link>
            </p>
          ) : days.length === 0 ? (
            <p className={styles.bookMuted}>No free times in the next 14 days. Please choose another teacher or come back later.</p>
          ) : (
            <div className={styles.bookDays}>
              {days.map((day, index) => (
                // a day per disclosure (they open without JavaScript too): the first, or the chosen time's, open
                <details key={day.key} className={styles.bookDay} open={index === 0 || day.starts.includes(start) || undefined}>
                  <summary className={styles.bookDayLabel}>
                    {day.label}
                    <span className={styles.bookCount}>{day.starts.length === 1 ? ' · 1 time' : ` · ${day.starts.length} times`}</span>
                  </summary>
                  <fieldset className={styles.bookDayTimes}>
                    <legend className="visually-hidden">{day.label}</legend>
                    <div className={styles.bookTimes}>
                      {day.starts.map((slot) => (
                        <label key={slot} className={styles.bookTime}>
                          <input
                            type="radio"
                            name="start"
                            value={slot}
                            checked={start === slot}
                            onChange={() => setStart(slot)}
                            aria-invalid={errors.start ? true : undefined}
                            aria-describedby={errors.start ? startErrorId : undefined}
                          />
                          <span>{formatTime(slot, timeZone)}</span>
                        </label>
                      ))}
                    </div>
                  </fieldset>
                </details>
              ))}
            </div>
          )}
          {errors.start ? (
            <p id={startErrorId} className={styles.bookError} role="alert">
              {errors.start}
            </p>
          ) : null}
        </fieldset>
        <div className={styles.fields}>
          <TextField
            label="Full Name"
            placeholder="Full Name"
            name="fullName"
            autoComplete="name"
            defaultValue={values.fullName ?? (isLoggedIn ? user.name : '')}
            error={errors.fullName}
          />
          <TextField
            label="Email"
            placeholder="Email"
            type="email"
            name="email"
            autoComplete="email"
            defaultValue={values.email ?? (isLoggedIn ? user.email : '')}
            error={errors.email}
          />
          <TextField
            label="Phone number"
            placeholder="Phone number"
            type="tel"
            name="phone"
            autoComplete="tel"
            defaultValue={values.phone ?? ''}
            error={errors.phone}
          />
        </div>
        {message ? (
          <p role="alert" className={styles.bookFormError}>
            {message}
          </p>
        ) : null}
        <Button type="submit" fullWidth>
          Book
        </Button>
      </form>
      {/* the zone's own form (GET ?tz=): its select and button sit in the time picker above, by their `form` attribute */}
      <form id={zoneFormId} className={styles.bookZoneForm} method="get" action={action}>
        {search.get('language') ? <input type="hidden" name="language" value={search.get('language') ?? ''} /> : null}
      </form>
    </>
  );
}

/**
 * /teachers/:id/book: the booking modal as a page of its own, which "Book trial lesson" leads
 * to before (or without) JavaScript; once booked, the confirmation the modal would show.
 */
export function BookingPage({ teacherId }: { teacherId: string }) {
  const { data: teacher, error, isError } = useGetTeacherQuery(teacherId);
  const echo = useGetBookingEchoQuery(teacherId).data ?? null;
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const timeZone = usePageTimeZone();
  const booked = echo?.form === 'booking' ? echo.booked : undefined;
  const pending = booked?.created.lesson.status === 'pending';
  const missing = isError && (errorStatus(error) === 404 || errorStatus(error) === 400);
  const name = teacher ? `${teacher.name} ${teacher.surname}` : '';
  useHead({ title: teacher ? `${BOOKING_TITLE} with ${name} · LearnLingo` : `${BOOKING_TITLE} · LearnLingo`, description: BOOKING_TEXT, noindex: true });

  if (!teacher) {
    return missing ? (
      <EmptyState title="Teacher not found" headingLevel={1} action={<ButtonLink to="/teachers">See all teachers</ButtonLink>}>
        This teacher is not in our catalogue. The link may be old or mistyped.
      </EmptyState>
    ) : isError ? (
      <EmptyState title="Could not load this teacher" headingLevel={1} action={<ButtonLink to="/teachers">See all teachers</ButtonLink>}>
        Check your connection and try again.
      </EmptyState>
    ) : (
      <Spinner label="Loading the teacher" />
    );
  }

  return (
    <div className={styles.bookPage}>
      <div className={styles.bookColumn}>
        <Link className={styles.bookBack} to={`/teachers/${encodeURIComponent(teacher.id)}`}>
          ← {name}
        </Link>
        <section className={styles.bookCard} aria-labelledby="booking-page-title">
          <h1 id="booking-page-title" className={styles.bookHeading}>
            {booked
              ? pending
                ? lessonMessages.checkEmail
                : booked.created.lesson.status === 'requested'
                  ? requestTexts.requestSent
                  : 'Your trial lesson is booked'
              : BOOKING_TITLE}
          </h1>
          {booked ? (
            <>
              <p role="status" className={styles.bookNotice}>
                {toastMessages.bookingSuccess}
              </p>
              <BookingConfirmation
                created={booked.created}
                timeZone={booked.timeZone}
                isLoggedIn={isLoggedIn}
                doneTo={`/teachers/${encodeURIComponent(teacher.id)}`}
              />
            </>
          ) : (
            <>
              <p className={styles.bookText}>{BOOKING_TEXT}</p>
              <BookingTeacher teacher={teacher} className={styles.bookTeacher} />
              <BookingPageForm teacher={teacher} echo={echo?.form === 'booking' ? echo : null} timeZone={timeZone} />
            </>
          )}
        </section>
      </div>
    </div>
  );
}
