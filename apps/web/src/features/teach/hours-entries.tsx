import { useState, type FormEvent, type ReactNode } from 'react';
import { extraHoursInputSchema, timeOffInputSchema, wholeHourText, type TeachAvailability } from '@learnlingo/contract';
import type { z } from 'zod';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { fieldErrors, formError, useLive } from '../admin';
import { useAddExtraHoursMutation, useAddTimeOffMutation, useRemoveExtraHoursMutation, useRemoveTimeOffMutation } from './hours-api';
import { FormFeedback, FROM_HOURS, HourSelect, issueKeys, TO_HOURS } from './hours-parts';
import styles from './hours-tab.module.css';

type Errors = Record<string, string>;
type Answer = PromiseLike<{ data: unknown } | { error: unknown }>;

interface EntriesProps<Entry extends { id: string }, Input> {
  entries: readonly Entry[];
  /** the list's accessible name, and the text when it is empty */
  listLabel: string;
  empty: string;
  /** what an entry is, as its Remove button names it ("the time off") */
  kind: string;
  /** an entry as a line */
  describe: (entry: Entry) => { text: string; more?: string };
  remove: (id: string) => Answer;
  removing: boolean;
  formLabel: string;
  submitLabel: string;
  schema: z.ZodType<unknown, Input>;
  valuesOf: (form: FormData) => Input;
  add: (values: Input) => Answer;
  adding: boolean;
  fields: (errors: Errors) => ReactNode;
}

/**
 * Entries of the teacher's that are not over yet (time off, extra hours): the list, each
 * removable, and the form that adds one, checked with the contract's schema first; a 400's
 * message shows at the field it names.
 */
function EntriesSection<Entry extends { id: string }, Input>(props: EntriesProps<Entry, Input>) {
  const [errors, setErrors] = useState<Errors>({});
  const live = useLive();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const values = props.valuesOf(new FormData(target));
    const checked = props.schema.safeParse(values);
    if (!checked.success) return setErrors(issueKeys(checked.error.issues));
    setErrors({});
    const result = await props.add(values);
    if (!('error' in result)) return target.reset();
    const fields = fieldErrors(result.error);
    setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
  };
  return (
    <div className={styles.entries}>
      {props.entries.length === 0 ? (
        <p className={styles.muted}>{props.empty}</p>
      ) : (
        <ul className={styles.entryList} aria-label={props.listLabel}>
          {props.entries.map((entry) => {
            const { text, more } = props.describe(entry);
            return (
              <li key={entry.id} className={styles.entry}>
                <span>
                  {text}
                  {more ? <span className={styles.muted}> · {more}</span> : null}
                </span>
                <Button variant="secondary" disabled={!live || props.removing} onClick={() => void props.remove(entry.id)} aria-label={`Remove ${props.kind} ${text}`}>
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label={props.formLabel}>
        {props.fields(errors)}
        <FormFeedback errors={errors} />
        <div className={styles.actions}>
          <Button type="submit" variant="dark" disabled={!live || props.adding}>
            {props.submitLabel}
          </Button>
        </div>
      </form>
    </div>
  );
}

/** `2026-12-24`, or `2026-12-21 – 2027-01-08` for several days. */
const days = (startsOn: string, endsOn: string) => (startsOn === endsOn ? startsOn : `${startsOn} – ${endsOn}`);
const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/** Time off as date ranges in the teacher's zone (one entry for a whole holiday), with a reason. */
export function TimeOffSection({ availability }: { availability: TeachAvailability }) {
  const [add, adding] = useAddTimeOffMutation();
  const [remove, removing] = useRemoveTimeOffMutation();
  return (
    <EntriesSection
      entries={availability.timeOff}
      listLabel="Your time off"
      empty="No time off ahead."
      kind="the time off"
      describe={(entry) => ({ text: days(entry.startsOn, entry.endsOn), more: entry.reason })}
      remove={remove}
      removing={removing.isLoading}
      formLabel="Add time off"
      submitLabel="Add time off"
      schema={timeOffInputSchema}
      valuesOf={(form) => ({ startsOn: text(form, 'startsOn'), endsOn: text(form, 'endsOn'), reason: text(form, 'reason') })}
      add={add}
      adding={adding.isLoading}
      fields={(errors) => (
        <>
          <div className={styles.row}>
            <TextField label="First day off" name="startsOn" type="date" required error={errors.startsOn} />
            <TextField label="Last day off" name="endsOn" type="date" required error={errors.endsOn} />
          </div>
          <TextField label="Reason (optional, for you and the school)" name="reason" maxLength={200} placeholder="Holiday" error={errors.reason} />
        </>
      )}
    />
  );
}

/** Extra hours on a date (beyond the weekly ones, even on a day off). */
export function ExtraHoursSection({ availability }: { availability: TeachAvailability }) {
  const [add, adding] = useAddExtraHoursMutation();
  const [remove, removing] = useRemoveExtraHoursMutation();
  return (
    <EntriesSection
      entries={availability.extraHours}
      listLabel="Your extra hours"
      empty="No extra hours ahead."
      kind="the extra hours"
      describe={(entry) => ({ text: `${entry.on} ${entry.from}–${entry.to}` })}
      remove={remove}
      removing={removing.isLoading}
      formLabel="Add extra hours"
      submitLabel="Add extra hours"
      schema={extraHoursInputSchema}
      valuesOf={(form) => ({ on: text(form, 'on'), from: wholeHourText(Number(form.get('from'))), to: wholeHourText(Number(form.get('to'))) })}
      add={add}
      adding={adding.isLoading}
      fields={(errors) => (
        <div className={styles.row}>
          <TextField label="Date" name="on" type="date" required error={errors.on} />
          <div className={styles.pair}>
            <HourSelect label="From" name="from" value={9} hours={FROM_HOURS} error={errors.from} />
            <HourSelect label="To" name="to" value={12} hours={TO_HOURS} error={errors.to} />
          </div>
        </div>
      )}
    />
  );
}
