import { useId, useMemo, useState, type Ref } from 'react';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/select';
import { Spinner } from '../../../components/ui/spinner';
import { useScrollEdges } from '../hooks/use-scroll-edges';
import { dayKey, formatDay, formatTime, timeZones, zoneLabel } from '../lib/lesson-time';
import styles from './slot-picker.module.css';

export interface SlotPickerProps {
  /** free starts, UTC ISO, ascending */
  slots: readonly string[];
  /** the teacher's IANA zone (noted) */
  teacherTimeZone: string | undefined;
  /** the zone times are shown in (the learner's) */
  timeZone: string;
  onTimeZoneChange: (timeZone: string) => void;
  /** the chosen start ('' for none) */
  value: string;
  onChange: (start: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  isLoading?: boolean;
  isError?: boolean;
  onRetry?: () => void;
  /** the group itself (focusable), e.g. for react-hook-form to focus when the time is refused */
  ref?: Ref<HTMLFieldSetElement>;
}

/**
 * The lesson time: days first, then that day's times, both in the learner's zone (which
 * they can change); the teacher's zone is noted. Times are radio buttons named `start`.
 */
export function SlotPicker({
  slots,
  teacherTimeZone,
  timeZone,
  onTimeZoneChange,
  value,
  onChange,
  onBlur,
  error,
  isLoading = false,
  isError = false,
  onRetry,
  ref,
}: SlotPickerProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const days = useMemo(() => {
    const byDay = new Map<string, string[]>();
    for (const slot of slots) {
      const key = dayKey(slot, timeZone);
      byDay.set(key, [...(byDay.get(key) ?? []), slot]);
    }
    return [...byDay.entries()].map(([key, starts]) => ({ key, label: formatDay(starts[0]!, timeZone), starts }));
  }, [slots, timeZone]);

  const [pickedDay, setPickedDay] = useState<string | null>(null);
  const valueDay = value && slots.includes(value) ? dayKey(value, timeZone) : null;
  const day = days.find((d) => d.key === (pickedDay ?? valueDay)) ?? days[0];
  const [hiddenDays, daysRef] = useScrollEdges();
  const zones = useMemo(() => timeZones(timeZone).map((z) => ({ value: z, label: zoneLabel(z) })), [timeZone]);

  return (
    <fieldset ref={ref} tabIndex={-1} className={styles.picker} aria-describedby={error ? errorId : undefined}>
      <legend className={styles.legend}>Choose a time</legend>
      <div className={styles.zones}>
        <Select
          label="Times shown in"
          outlined
          options={zones}
          value={timeZone}
          onChange={(event) => {
            onTimeZoneChange(event.target.value);
            setPickedDay(null);
          }}
        />
        {teacherTimeZone ? <p className={styles.teacherZone}>The teacher’s time zone: {zoneLabel(teacherTimeZone)}</p> : null}
      </div>

      {isLoading ? (
        <Spinner size={40} label="Loading the free times" />
      ) : isError ? (
        <div className={styles.message} role="alert">
          <p>Could not load the free times.</p>
          {onRetry ? (
            <Button variant="secondary" onClick={onRetry}>
              Try again
            </Button>
          ) : null}
        </div>
      ) : days.length === 0 ? (
        <p className={styles.message}>No free times in the next 14 days. Please choose another teacher or come back later.</p>
      ) : (
        <>
          <div
            ref={daysRef}
            className={styles.days}
            role="group"
            aria-label="Day"
            // the sides where more days hide, faded by the CSS
            data-more={hiddenDays || undefined}
          >
            {days.map((d) => (
              <button
                key={d.key}
                type="button"
                className={styles.day}
                aria-pressed={d.key === day?.key}
                onClick={() => setPickedDay(d.key)}
              >
                {d.label}
                <span className={styles.count}>{d.starts.length === 1 ? '1 time' : `${d.starts.length} times`}</span>
              </button>
            ))}
          </div>
          {day ? (
            <div className={styles.times} role="radiogroup" aria-label={`Times on ${day.label}`}>
              {day.starts.map((start) => (
                <label key={start} className={styles.time}>
                  <input
                    type="radio"
                    name="start"
                    value={start}
                    checked={value === start}
                    onChange={() => onChange(start)}
                    onBlur={onBlur}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                  />
                  <span>{formatTime(start, timeZone)}</span>
                </label>
              ))}
            </div>
          ) : null}
        </>
      )}
      {error ? (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
