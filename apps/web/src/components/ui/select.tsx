import { useId, type ComponentPropsWithRef } from 'react';
import styles from './select.module.css';

export interface SelectOption {
  value: string;
  label: string;
}

export type SelectProps = Omit<ComponentPropsWithRef<'select'>, 'children'> & {
  label: string;
  options: readonly SelectOption[];
  /** width of the control in px (the label keeps its own size) */
  width?: number;
  /** on a white surface (a modal): a visible border, and a long value shortened with "…" rather than cut */
  outlined?: boolean;
};

/** A labelled native select (keyboard and screen readers work as the platform intends). */
export function Select({ label, options, width, outlined = false, id, className, ...selectProps }: SelectProps) {
  const autoId = useId();
  const selectId = id ?? `select-${autoId}`;
  return (
    <div className={[styles.field, outlined ? styles.outlined : '', className ?? ''].filter(Boolean).join(' ')}>
      <label htmlFor={selectId} className={styles.label}>
        {label}
      </label>
      <div className={styles.control} style={width ? { width } : undefined}>
        <select id={selectId} className={styles.select} {...selectProps}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <svg className={styles.chevron} width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path d="m5 7.5 5 5 5-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
    </div>
  );
}
