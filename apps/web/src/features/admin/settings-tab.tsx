import { useState, type FormEvent } from 'react';
import { CANCEL_CUTOFF_HOURS_MAX, closureInputSchema, schoolSettingsInputSchema, type SchoolSettings } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import type { ConsoleTabPage } from './console-layout-parts';
import { useLive } from './teacher-form-fields';
import {
  fieldErrors,
  formError,
  staffConsoleApi,
  useAddStaffClosureMutation,
  useGetStaffSchoolQuery,
  usePutStaffSchoolMutation,
  useRemoveStaffClosureMutation,
} from './teachers-api';
import styles from './teachers-tab.module.css';

type Errors = Record<string, string>;
const issues = (list: readonly { path: PropertyKey[]; message: string }[]): Errors => {
  const out: Errors = {};
  for (const i of list) out[String(i.path[0] ?? 'form')] ??= i.message;
  return out;
};

function SchoolForm({ school }: { school: SchoolSettings }) {
  const [save, { isLoading }] = usePutStaffSchoolMutation();
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const live = useLive();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const email = String(form.get('contactEmail') ?? '').trim();
    const values = { timeZone: String(form.get('timeZone') ?? ''), weeklyHours: String(form.get('weeklyHours') ?? ''), contactEmail: email || null };
    // the cancellation cut-off (decision 117): anything but digits is the schema's to name
    const cutoff = String(form.get('cancelCutoffHours') ?? '').trim();
    const checked = schoolSettingsInputSchema.safeParse({ ...values, cancelCutoffHours: /^\d{1,4}$/.test(cutoff) ? Number(cutoff) : cutoff });
    if (!checked.success) return setErrors(issues(checked.error.issues));
    setErrors({});
    const result = await save({ ...values, cancelCutoffHours: checked.data.cancelCutoffHours });
    if ('error' in result) {
      const fields = fieldErrors(result.error);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
    } else setSaved(true);
  };
  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="School hours and contact">
      <div className={styles.row}>
        <TextField label="Time zone" name="timeZone" defaultValue={school.timeZone} maxLength={64} error={errors.timeZone} />
        <TextField label="Contact e-mail" name="contactEmail" type="email" defaultValue={school.contactEmail ?? ''} maxLength={254} error={errors.contactEmail} />
      </div>
      <TextField
        label="Cancellation cut-off (hours before a lesson)"
        name="cancelCutoffHours"
        type="number"
        inputMode="numeric"
        min={0}
        max={CANCEL_CUTOFF_HOURS_MAX}
        defaultValue={String(school.cancelCutoffHours)}
        error={errors.cancelCutoffHours}
        aria-describedby="cutoff-hint"
      />
      <p id="cutoff-hint" className={styles.hint}>
        Learners and teachers alike can cancel a lesson only up to this many hours before it starts.
      </p>
      <TextField label="Weekly hours (teachers without their own)" name="weeklyHours" defaultValue={school.weeklyHours} maxLength={300} error={errors.weeklyHours} aria-describedby="hours-hint" />
      <p id="hours-hint" className={styles.hint}>
        For example: Mon-Fri 09:00-18:00; Sat 10:00-13:00
      </p>
      {errors.form ? <p className={styles.error} role="alert">{errors.form}</p> : null}
      {saved ? <p className={styles.notice} role="status">Saved. Lesson times follow at once.</p> : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={!live || isLoading}>
          Save
        </Button>
      </div>
    </form>
  );
}

function Closures({ school }: { school: SchoolSettings }) {
  const [add, { isLoading }] = useAddStaffClosureMutation();
  const [remove] = useRemoveStaffClosureMutation();
  const [errors, setErrors] = useState<Errors>({});
  const live = useLive();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const target = event.currentTarget;
    const form = new FormData(target);
    const values = { startsOn: String(form.get('startsOn') ?? ''), endsOn: String(form.get('endsOn') ?? ''), reason: String(form.get('reason') ?? '') };
    const checked = closureInputSchema.safeParse(values);
    if (!checked.success) return setErrors(issues(checked.error.issues));
    setErrors({});
    const result = await add(values);
    if ('error' in result) {
      const fields = fieldErrors(result.error);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
    } else target.reset();
  };
  return (
    <div className={styles.form}>
      {school.closures.length === 0 ? (
        <p className={styles.muted}>No closures ahead.</p>
      ) : (
        <ul className={styles.closures}>
          {school.closures.map((c) => (
            <li key={c.id} className={styles.closure}>
              <span>
                {c.startsOn === c.endsOn ? c.startsOn : `${c.startsOn} – ${c.endsOn}`}
                {c.reason ? <span className={styles.muted}> · {c.reason}</span> : null}
              </span>
              <Button variant="secondary" onClick={() => void remove(c.id)} aria-label={`Remove the closure from ${c.startsOn} to ${c.endsOn}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Add a closure">
        <div className={styles.row}>
          <TextField label="First day closed" name="startsOn" type="date" error={errors.startsOn} />
          <TextField label="Last day closed" name="endsOn" type="date" error={errors.endsOn} />
        </div>
        <TextField label="Reason (optional)" name="reason" maxLength={200} placeholder="Public holiday" error={errors.reason} />
        {errors.form ? <p className={styles.error} role="alert">{errors.form}</p> : null}
        <div className={styles.actions}>
          <Button type="submit" variant="dark" disabled={!live || isLoading}>
            Add closure
          </Button>
        </div>
      </form>
    </div>
  );
}

function SettingsTab() {
  const { data, isError } = useGetStaffSchoolQuery();
  if (isError) return <p className={styles.error}>The settings could not be loaded.</p>;
  if (!data) return <Spinner label="Loading the settings" />;
  return (
    <div className={styles.sections}>
      <section aria-labelledby="school-heading">
        <h2 id="school-heading" className={styles.title}>
          School hours and contact
        </h2>
        <SchoolForm school={data} key={`${data.timeZone}|${data.weeklyHours}|${data.contactEmail ?? ''}|${data.cancelCutoffHours}`} />
      </section>
      <section aria-labelledby="closures-heading">
        <h2 id="closures-heading" className={styles.title}>
          Closures
        </h2>
        <p className={styles.hint}>Days in the school&apos;s time zone when no lesson can be booked, e.g. public holidays.</p>
        <Closures school={data} />
      </section>
    </div>
  );
}

/** /admin/settings: fetched on the server. */
export const settingsTab: ConsoleTabPage = {
  Component: SettingsTab,
  prefetch: async ({ dispatch, rest }) => {
    if (rest !== '') return 'not-found';
    await dispatch(staffConsoleApi.endpoints.getStaffSchool.initiate());
    return undefined;
  },
};
