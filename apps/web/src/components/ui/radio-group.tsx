import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import styles from './radio-group.module.css';

export type RadioGroupProps = Omit<ComponentPropsWithRef<'input'>, 'type' | 'value'> & {
  /** the question, as the fieldset's legend */
  legend: ReactNode;
  options: readonly string[];
  /** shown in red under the choices and tied to each of them */
  error?: string;
  className?: string;
  /** the option checked at first, for a form the browser posts itself (a server-rendered page's) */
  defaultOption?: string;
};

/**
 * A fieldset of radio buttons. The remaining props (name, onChange, onBlur, ref — e.g.
 * react-hook-form's `register(...)`) go to every radio.
 */
export function RadioGroup({ legend, options, error, className, id, defaultOption, ...inputProps }: RadioGroupProps) {
  const autoId = useId();
  const groupId = id ?? `radio-${autoId}`;
  const errorId = `${groupId}-error`;
  return (
    <fieldset className={[styles.group, className ?? ''].filter(Boolean).join(' ')}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.options}>
        {options.map((option, index) => (
          <label key={option} className={styles.option}>
            <input
              type="radio"
              className={styles.radio}
              value={option}
              id={`${groupId}-${index}`}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              {...(defaultOption !== undefined && { defaultChecked: option === defaultOption })}
              {...inputProps}
            />
            <span>{option}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
