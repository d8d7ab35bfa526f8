import { Link, type LinkProps } from 'react-router';
import { buttonClassName, type ButtonVariant } from './button';

/** A link that looks like a Button ("Get started", the links of empty and not-found states). */
export function ButtonLink({
  variant = 'primary',
  fullWidth = false,
  className,
  ...props
}: LinkProps & { variant?: ButtonVariant; fullWidth?: boolean }) {
  return <Link className={buttonClassName(variant, fullWidth, className)} {...props} />;
}
