import { useState, type FormEvent } from 'react';
import { extraHoursInputSchema, timeOffInputSchema, wholeHourText, type TeachAvailability } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { fieldErrors, formError, useLive } from '../admin';
import { useAddExtraHoursMutation, useAddTimeOffMutation, useRemoveExtraHoursMutation, useRemoveTimeOffMutation } from './hours-api';
import { FROM_HOURS, HourSelect, issueKeys, TO_HOURS } from './hours-parts';
import styles from './hours-tab.module.css';

type Errors = Record<string, string>;
const answerErrors = (error: unknown): Errors => {
  const fields = fieldErrors(error);
  return Object.keys(fields).length > 0 ? fields : { form: formError(error) };
};

/** `2026-12-24`, or `2026-12-21 – 2027-01-08` for several days. */
const days = (startsOn: string, endsOn: string) => (startsOn === endsOn ? startsOn : `${startsOn} – ${endsOn}`);

/** Time off as date ranges in the teacher's zone (one entry for a whole holiday): the list, each removable, and the form to add one with a reason. */
export function TimeOffSection({ availability }: { availability: TeachAvailability }) {
  const [add, { isLoading }] = useAddTimeOffMutation();
  const [remove, removing] = useRemoveTimeOffMutation();
  const [errors, setErrors] = useState<Errors>({});
  const live = useLive();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    const values = { startsOn: String(form.get('startsOn') ?? ''), endsOn: String(form.get('endsOn') ?? ''), reason: String(form.get('reason') ?? '') };
    const checked = timeOffInputSchema.safeParse(values);
    if (!checked.success) return setErrors(issueKeys(checked.error.issues));
    setErrors({});
    const result = await add(values);
    if ('error' in result) setErrors(answerErrors(result.error));
    else target.reset();
  };
  return (
    <div className={styles.entries}>
      {availability.timeOff.length === 0 ? (
        <p className={styles.muted}>No time off ahead.</p>
      ) : (
        <ul className={styles.entryList} aria-label="Your time off">
          {availability.timeOff.map((entry) => (
            <li key={entry.id} className={styles.entry}>
              <span>
                {days(entry.startsOn, entry.endsOn)}
                {entry.reason ? <span className={styles.muted}> · {entry.reason}</span> : null}
              </span>
              <Button variant="secondary" disabled={!live || removing.isLoading} onClick={() => void remove(entry.id)} aria-label={`Remove the time off ${days(entry.startsOn, entry.endsOn)}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add time off">
        <div className={styles.row}>
          <TextField label="First day off" name="startsOn" type="date" required error={errors.startsOn} />
          <TextField label="Last day off" name="endsOn" type="date" required error={errors.endsOn} />
        </div>
        <TextField label="Reason (optional, for you and the school)" name="reason" maxLength={200} placeholder="Holiday" error={errors.reason} />
        {errors.form ? (
          <p className={styles.error} role="alert">
            {errors.form}
          </p>
        ) : null}
        <div className={styles.actions}>
          <Button type="submit" variant="dark" disabled={!live || isLoading}>
            Add time off
          </Button>
        </div>
      </form>
    </div>
  );
}


/** Extra hours on a date (beyond the weekly ones, even on a day off): the list, each removable, and the form to add one. */
export function ExtraHoursSection({ availability }: { availability: TeachAvailability }) {
  const [add, { isLoading }] = useAddExtraHoursMutation();
  const [remove, removing] = useRemoveExtraHoursMutation();
  const [errors, setErrors] = useState<Errors>({});
  const live = useLive();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    const values = { on: String(form.get('on') ?? ''), from: wholeHourText(Number(form.get('from'))), to: wholeHourText(Number(form.get('to'))) };
    const checked = extraHoursInputSchema.safeParse(values);
    if (!checked.success) return setErrors(issueKeys(checked.error.issues));
    setErrors({});
    const result = await add(values);
    if ('error' in result) setErrors(answerErrors(result.error));
    else target.reset();
  };
  return (
    <div className={styles.entries}>
      {availability.extraHours.length === 0 ? (
        <p className={styles.muted}>No extra hours ahead.</p>
      ) : (
        <ul className={styles.entryList} aria-label="Your extra hours">
          {availability.extraHours.map((entry) => (
            <li key={entry.id} className={styles.entry}>
              <span>
                {entry.on}, {entry.from}–{entry.to}
              </span>
              <Button variant="secondary" disabled={!live || removing.isLoading} onClick={() => void remove(entry.id)} aria-label={`Remove the extra hours ${entry.on} ${entry.from}–${entry.to}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add extra hours">
        <div className={styles.row}>
          <TextField label="Date" name="on" type="date" required error={errors.on} />
          <div className={styles.pair}>
            <HourSelect label="From" name="from" value={9} hours={FROM_HOURS} error={errors.from} />
            <HourSelect label="To" name="to" value={12} hours={TO_HOURS} error={errors.to} />
          </div>
        </div>
        {errors.form ? (
          <p className={styles.error} role="alert">
            {errors.form}
          </p>
        ) : null}
        <div className={styles.actions}>
          <Button type="submit" variant="dark" disabled={!live || isLoading}>
            Add extra hours
          </Button>
        </div>
      </form>
    </div>
  );
}
