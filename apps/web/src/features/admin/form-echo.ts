import { useEffect, useState } from 'react';
import type { FormEcho } from '@learnlingo/contract/plain';
import { useAppSelector } from '../../store';

/** The refused posts (their echo objects) already shown. */
const shown = new WeakSet<object>();

/**
 * A console form's post that the server refused before the app ran (admin-form-routes.ts): what
 * was typed and each field's message, from the server's render. Shown once — by the server's
 * render and its hydration — never by a later mount of the form (after a save through the API).
 */
export function useFormEcho(form: FormEcho['form']): FormEcho | undefined {
  const stored = useAppSelector((state) => (state.formEcho?.echo?.form === form ? state.formEcho.echo : undefined));
  const [echo] = useState(() => (stored && !shown.has(stored) ? stored : undefined));
  useEffect(() => {
    if (stored) shown.add(stored);
  }, [stored]);
  return echo;
}
