import { useState } from 'react';
import { TextField, type TextFieldProps } from '../../../components/ui/text-field';
import { EyeIcon, EyeOffIcon } from '../../../components/ui/eye-icons';
import styles from './auth-form.module.css';

/** A password input with a show/hide toggle ("Show password" / "Hide password"). */
export function PasswordField(props: Omit<TextFieldProps, 'type' | 'endAdornment'>) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      endAdornment={
        <button
          type="button"
          className={styles.toggle}
          aria-label={visible ? 'Hide password' : 'Show password'}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeIcon /> : <EyeOffIcon />}
        </button>
      }
    />
  );
}
