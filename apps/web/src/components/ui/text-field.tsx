import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import styles from './text-field.module.css';

export type TextFieldProps = ComponentPropsWithRef<'input'> & {
  label: string;
  /** keep the label for assistive technology but hide it visually (the placeholder shows instead) */
  hideLabel?: boolean;
  /** shown in red under the field and tied to it with aria-describedby */
  error?: string;
  /** e.g. the show/hide password button, placed inside the field on the right */
  endAdornment?: ReactNode;
};

/** A labelled input; every native prop (and react-hook-form's `register`, ref included) passes through. */
export function TextField({
  label,
  hideLabel = false,
  error,
  endAdornment,
  id,
  className,
  'aria-describedby': describedBy,
  ...inputProps
}: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? `field-${autoId}`;
  const errorId = `${inputId}-error`;
  const describedByIds = [describedBy, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;

  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={inputId} className={hideLabel ? 'visually-hidden' : styles.label}>
        {label}
      </label>
      <div className={styles.control}>
        <input
          id={inputId}
          className={[styles.input, error ? styles.invalid : '', endAdornment ? styles.withAdornment : '']
            .filter(Boolean)
            .join(' ')}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByIds}
          {...inputProps}
        />
        {endAdornment ? <div className={styles.adornment}>{endAdornment}</div> : null}
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
