import type { ComponentPropsWithRef } from 'react';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'dark';

export type ButtonProps = ComponentPropsWithRef<'button'> & {
  /** primary: yellow background, dark text; secondary: outlined; ghost: text only; dark: black background */
  variant?: ButtonVariant;
  fullWidth?: boolean;
};

/** The button's classes, for anything that must look like one (see ButtonLink). */
export function buttonClassName(variant: ButtonVariant = 'primary', fullWidth = false, className?: string): string {
  return [styles.button, styles[variant], fullWidth ? styles.fullWidth : '', className ?? ''].filter(Boolean).join(' ');
}

export function Button({ variant = 'primary', fullWidth = false, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClassName(variant, fullWidth, className)} {...props} />;
}
