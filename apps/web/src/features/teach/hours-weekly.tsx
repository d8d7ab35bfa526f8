import { useState, type FormEvent } from 'react';
import { teachAvailabilityInputSchema, wholeHourText, type BookingMode, type TeachAvailability } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { fieldErrors, formError, useLive } from '../admin';
import { usePutTeachAvailabilityMutation } from './hours-api';
import { FormFeedback, FROM_HOURS, HourSelect, issueKeys, TO_HOURS, ZoneOptions } from './hours-parts';
import styles from './hours-tab.module.css';

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

interface Range {
  from: number;
  to: number;
}
const hourOf = (text: string) => Number(text.slice(0, 2));

/** The range a day gets when one is added: after its last, or 09:00–17:00. */
function nextRange(ranges: readonly Range[]): Range {
  const last = ranges.at(-1);
  if (!last) return { from: 9, to: 17 };
  const from = Math.min(last.to + 1, 23);
  return { from, to: Math.min(from + 1, 24) };
}

/**
 * The weekly hours in the teacher's zone (several ranges a day, each added and removed here),
 * the zone, minimum notice, how far ahead and the booking mode: one PUT. A 400's message
 * shows next to the field it names (`weeklyHours.0.1.from` under Monday's second range).
 */
export function WeeklyHoursForm({ availability }: { availability: TeachAvailability }) {
  const [save, { isLoading }] = usePutTeachAvailabilityMutation();
  const [days, setDays] = useState<Range[][]>(() => availability.weeklyHours.map((day) => day.map((r) => ({ from: hourOf(r.from), to: hourOf(r.to) }))));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const live = useLive();

  const setDay = (index: number, ranges: Range[]) => setDays((all) => all.map((day, i) => (i === index ? ranges : day)));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const number = (name: string) => {
      const text = String(form.get(name) ?? '').trim();
      return text === '' ? Number.NaN : Number(text);
    };
    const values = {
      timeZone: String(form.get('timeZone') ?? '').trim(),
      weeklyHours: days.map((day) => day.map((r) => ({ from: wholeHourText(r.from), to: wholeHourText(r.to) }))),
      noticeHours: number('noticeHours'),
      horizonDays: number('horizonDays'),
      bookingMode: (form.get('bookingMode') === 'request' ? 'request' : 'instant') as BookingMode,
    };
    const checked = teachAvailabilityInputSchema.safeParse(values);
    if (!checked.success) return setErrors(issueKeys(checked.error.issues));
    setErrors({});
    const result = await save(values);
    if ('error' in result) {
      const fields = fieldErrors(result.error);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
    } else setSaved(true);
  };

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Weekly hours">
      {availability.ownHours ? null : <p className={styles.hint}>You teach the school&apos;s hours until you save your own.</p>}
      <TextField
        label="Your time zone"
        name="timeZone"
        defaultValue={availability.timeZone}
        maxLength={64}
        list="teach-zones"
        autoComplete="off"
        spellCheck={false}
        error={errors.timeZone}
        aria-describedby="zone-hint"
      />
      <p id="zone-hint" className={styles.hint}>
        An IANA zone such as Europe/Kyiv. Your hours, time off and extra hours are in this zone.
      </p>
      <ZoneOptions id="teach-zones" />
      <ul className={styles.days} aria-label="Hours by day">
        {days.map((ranges, day) => (
          <li key={DAY_NAMES[day]} className={styles.day}>
            <fieldset className={styles.dayFields}>
              <legend className={styles.dayName}>{DAY_NAMES[day]}</legend>
              <div className={styles.dayBody}>
                {ranges.length === 0 ? <p className={styles.muted}>No lessons</p> : null}
                {ranges.map((range, index) => {
                  const key = `weeklyHours.${day}.${index}`;
                  const context = `${DAY_NAMES[day]}, range ${index + 1}: `;
                  return (
                    <div key={index} className={styles.range}>
                      <HourSelect
                        label="from"
                        context={context}
                        value={range.from}
                        hours={FROM_HOURS}
                        error={errors[`${key}.from`] ?? errors[key]}
                        onChange={(from) => setDay(day, ranges.map((r, i) => (i === index ? { ...r, from } : r)))}
                      />
                      <HourSelect
                        label="to"
                        context={context}
                        value={range.to}
                        hours={TO_HOURS}
                        error={errors[`${key}.to`]}
                        onChange={(to) => setDay(day, ranges.map((r, i) => (i === index ? { ...r, to } : r)))}
                      />
                      <Button
                        variant="ghost"
                        className={styles.small}
                        disabled={!live}
                        onClick={() => setDay(day, ranges.filter((_, i) => i !== index))}
                        aria-label={`Remove ${DAY_NAMES[day]} ${wholeHourText(range.from)}–${wholeHourText(range.to)}`}
                      >
                        Remove
                      </Button>
                    </div>
                  );
                })}
                {errors[`weeklyHours.${day}`] ? <p className={styles.error}>{errors[`weeklyHours.${day}`]}</p> : null}
                <Button variant="ghost" className={styles.small} disabled={!live} onClick={() => setDay(day, [...ranges, nextRange(ranges)])} aria-label={`Add a range on ${DAY_NAMES[day]}`}>
                  + Add a range
                </Button>
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
      {errors.weeklyHours ? <p className={styles.error}>{errors.weeklyHours}</p> : null}
      <div className={styles.row}>
        <TextField label="Minimum notice (hours)" name="noticeHours" type="number" min={0} max={336} step={1} inputMode="numeric" defaultValue={availability.noticeHours} error={errors.noticeHours} />
        <TextField label="How far ahead learners may book (days)" name="horizonDays" type="number" min={1} max={365} step={1} inputMode="numeric" defaultValue={availability.horizonDays} error={errors.horizonDays} />
      </div>
      <fieldset className={styles.fieldset} aria-describedby={errors.bookingMode ? 'booking-mode-error' : undefined}>
        <legend className={styles.legend}>When a learner books</legend>
        <label className={styles.check}>
          <input type="radio" name="bookingMode" value="instant" defaultChecked={availability.bookingMode !== 'request'} />
          The lesson is confirmed at once
        </label>
        <label className={styles.check}>
          <input type="radio" name="bookingMode" value="request" defaultChecked={availability.bookingMode === 'request'} />
          It is a request: I accept or decline it (unanswered requests are declined at their deadline)
        </label>
        {errors.bookingMode ? (
          <p id="booking-mode-error" className={styles.error}>
            {errors.bookingMode}
          </p>
        ) : null}
      </fieldset>
      <FormFeedback errors={errors} saved={saved ? 'Saved. Learners see the new times at once.' : undefined} />
      <div className={styles.actions}>
        <Button type="submit" disabled={!live || isLoading} aria-busy={isLoading || undefined}>
          Save hours
        </Button>
      </div>
    </form>
  );
}
