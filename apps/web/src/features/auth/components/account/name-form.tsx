import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { accountMessages, updateNameSchema } from '@learnlingo/contract';
import { useAppDispatch, useAppSelector } from '../../../../store';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/text-field';
import { useUpdateNameMutation } from '../../api/auth-api';
import { selectUser, signedIn } from '../../auth-slice';
import { announceSession } from '../../lib/session-watch';
import { useAuthFormFailure } from '../use-auth-form-failure';
import styles from './account.module.css';

const FIELDS = ['name'] as const;

/**
 * The name the header greets the user with (the registration rule). The form posts to the
 * server without JavaScript (account-form-routes.ts), whose refusal (`echo`) shows until the
 * field changes; so the button is never disabled by the page's script alone.
 */
export function NameForm() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const echo = useAppSelector((state) => (state.formEcho?.echo?.form === 'account-name' ? state.formEcho.echo : undefined));
  const [updateName] = useUpdateNameMutation();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty, dirtyFields },
  } = useForm({ resolver: zodResolver(updateNameSchema), mode: 'all', defaultValues: { name: echo?.values.name ?? user.name } });
  const showFailure = useAuthFormFailure(setError, FIELDS);

  const onSubmit = handleSubmit(async (values) => {
    if (!isDirty && !echo) return;
    const result = await updateName(values);
    if (result.error) return showFailure(result.error);
    dispatch(signedIn({ ...user, name: values.name }));
    announceSession('changed');
    reset({ name: values.name });
    toast.success(accountMessages.nameChanged);
  });

  return (
    <section className={styles.card} aria-labelledby="account-name">
      <h2 id="account-name" className={styles.cardTitle}>
        Name
      </h2>
      <form className={styles.form} method="post" action="/account/name" noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
        {echo?.message ? <p role="alert">{echo.message}</p> : null}
        <TextField
          label="Name"
          autoComplete="name"
          error={errors.name?.message ?? (dirtyFields.name ? undefined : echo?.errors.name)}
          {...register('name')}
        />
        <div className={styles.actions}>
          <Button type="submit" disabled={isSubmitting}>
            Save name
          </Button>
        </div>
      </form>
    </section>
  );
}
