import { useId, type ComponentPropsWithRef } from 'react';
import styles from './text-area.module.css';

export type TextAreaProps = ComponentPropsWithRef<'textarea'> & {
  label: string;
  /** shown in red under the field and tied to it with aria-describedby */
  error?: string | undefined;
  /** a line under the label, tied to the field too */
  hint?: string | undefined;
};

/** A labelled textarea with its hint and its error (tied with aria-describedby), like TextField. */
export function TextArea({ label, error, hint, id, className, ...props }: TextAreaProps) {
  const autoId = useId();
  const areaId = id ?? `area-${autoId}`;
  const describedBy = [hint ? `${areaId}-hint` : '', error ? `${areaId}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={areaId} className={styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={`${areaId}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <textarea id={areaId} className={`${styles.textarea} ${error ? styles.invalid : ''}`} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {error ? (
        <p id={`${areaId}-error`} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
