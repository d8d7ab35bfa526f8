import { useId, useSyncExternalStore } from 'react';
import { wholeHourText } from '@learnlingo/contract';
import styles from './hours-tab.module.css';

/** Each issue under its whole path (`weeklyHours.0.1.from`), as the server names fields; the first message wins. */
export function issueKeys(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) out[issue.path.map(String).join('.') || 'form'] ??= issue.message;
  return out;
}

/** The hours a range may start at (00:00–23:00) and end at (01:00–24:00). */
export const FROM_HOURS = Array.from({ length: 24 }, (_, h) => h);
export const TO_HOURS = Array.from({ length: 24 }, (_, h) => h + 1);

/**
 * Under a form: what the server refused as a whole, or a pointer to the fields marked above
 * (an alert), and what was saved (a status).
 */
export function FormFeedback({ errors, saved }: { errors: Record<string, string>; saved?: string }) {
  return (
    <>
      {errors.form ? (
        <p className={styles.error} role="alert">
          {errors.form}
        </p>
      ) : Object.keys(errors).length > 0 ? (
        <p className={styles.error} role="alert">
          Please correct the fields marked above.
        </p>
      ) : null}
      {saved ? (
        <p className={styles.notice} role="status">
          {saved}
        </p>
      ) : null}
    </>
  );
}

/** A labelled select of whole hours (`09:00`), its error under it. */
export function HourSelect({
  label,
  context,
  value,
  hours,
  error,
  onChange,
  name,
}: {
  label: string;
  /** read before the label by assistive technology only ("Monday, range 1: ") */
  context?: string;
  value: number;
  hours: readonly number[];
  error?: string;
  onChange?: (hour: number) => void;
  name?: string;
}) {
  const id = useId();
  return (
    <div className={styles.hourField}>
      <label htmlFor={id} className={styles.smallLabel}>
        {context ? <span className="visually-hidden">{context}</span> : null}
        {label}
      </label>
      <select
        id={id}
        name={name}
        className={`${styles.select} ${error ? styles.invalid : ''}`}
        {...(onChange ? { value, onChange: (event) => onChange(Number(event.currentTarget.value)) } : { defaultValue: value })}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {hours.map((hour) => (
          <option key={hour} value={hour}>
            {wholeHourText(hour)}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const noSubscription = () => () => {};
const NO_ZONES: readonly string[] = [];
let zones: readonly string[] | undefined;
/** (read once: each call makes a new array, and a snapshot must stay the same) */
const allZones = () => (zones ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : NO_ZONES);
const noZones = () => NO_ZONES;

/** Every IANA zone this browser knows, once the app runs (the server's list may differ: none in its HTML). */
export function useZones(): readonly string[] {
  return useSyncExternalStore(noSubscription, allZones, noZones);
}

/** The browser's own zone once the app runs, else null. */
export function useBrowserZone(): string | null {
  return useSyncExternalStore(noSubscription, browserZone, () => null);
}
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone ?? null;

/** A datalist of every zone for a zone field (`list={id}`). */
export function ZoneOptions({ id }: { id: string }) {
  const zones = useZones();
  return (
    <datalist id={id}>
      {zones.map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
}
