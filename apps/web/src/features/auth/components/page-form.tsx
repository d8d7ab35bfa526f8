import { useRef, type BaseSyntheticEvent } from 'react';
import type { FormEcho } from '@learnlingo/contract/plain';
import styles from './auth-form.module.css';

/**
 * The /login and /register pages' form (decision 105): a plain `POST` to the server, which
 * works before the app has hydrated and without JavaScript; with JavaScript the fields are
 * checked first (the same rules, on change and on blur) and the form then posts as it is.
 */
export interface PageForm {
  /** where it posts: /login, /register or /forgot-password */
  action: string;
  /** the return path and the teacher to add once signed in */
  hidden: Record<string, string>;
  /** what the server refused last time, if anything */
  echo: FormEcho | null;
}

/** The form's element attributes, its hidden fields and its submit: the modal's form when `page` is absent. */
export function usePageForm(page: PageForm | undefined, validated: (post: () => void) => (event?: BaseSyntheticEvent) => Promise<void>) {
  const ref = useRef<HTMLFormElement>(null);
  if (!page) return { attributes: {}, hidden: null, message: null, submitAsPage: undefined };
  return {
    attributes: { method: 'post', action: page.action, ref },
    hidden: Object.entries(page.hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />),
    message: page.echo?.message ? (
      <p role="alert" className={styles.formError}>
        {page.echo.message}
      </p>
    ) : null,
    // form.submit() fires no submit event: the browser posts the fields as they are
    submitAsPage: validated(() => ref.current?.submit()),
  };
}

/** A field's message: the form's own once the field was changed, else what the server said. */
export function fieldError(own: string | undefined, page: PageForm | undefined, name: string, changed: boolean | undefined) {
  return own ?? (changed ? undefined : page?.echo?.errors[name]);
}
