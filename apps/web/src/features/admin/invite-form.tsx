import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import toast from 'react-hot-toast';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { emailSchema, teacherIdSchema } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { errorFields, genericErrorMessage } from '../../lib/api-error';
import { consoleStyles } from './console-layout-parts';
import { useInviteTeacherMutation } from './invite-api';
import { useLive } from './teacher-form-fields';
import { InviteList } from './invite-list';
import styles from './invite.module.css';

const inviteFormSchema = z.object({ teacherId: teacherIdSchema, email: emailSchema });

/** `?profile=` of the People URL: the profile whose invitations show (kept across reloads). */
const profileOf = (search: URLSearchParams) => {
  const id = search.get('profile') ?? '';
  return teacherIdSchema.safeParse(id).success ? id : null;
};

/**
 * Invites a teacher to their catalogue profile (its id, as in /teachers/ID): the e-mailed link
 * sets a password and binds the account. Then shows the profile's invitations (its id stays in
 * the URL as `?profile=`).
 */
export function InviteForm({ teacherId: fixedTeacherId }: { teacherId?: string }) {
  const [invite] = useInviteTeacherMutation();
  const [search, setSearch] = useSearchParams();
  const shown = fixedTeacherId ?? profileOf(search);
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(inviteFormSchema), defaultValues: { teacherId: fixedTeacherId ?? profileOf(search) ?? '', email: '' } });

  // no server route takes this form: it posts (never a query) and its button waits for the app,
  // as the console's do (a tap before that would send nothing useful)
  const live = useLive();
  const onSubmit = handleSubmit(async (values) => {
    if (!fixedTeacherId) {
      const next = new URLSearchParams(search);
      next.set('profile', values.teacherId);
      setSearch(next, { replace: true });
    }
    const result = await invite(values);
    if (result.error) {
      const fields = errorFields(result.error);
      if (fields.email) return setError('email', { type: 'server', message: fields.email }, { shouldFocus: true });
      return toast.error(genericErrorMessage(result.error));
    }
    resetField('email');
    toast.success(`Invitation sent to ${result.data.email}.`);
  });

  return (
    <section className={consoleStyles.section} aria-labelledby="invite-teacher">
      <h3 id="invite-teacher" className={consoleStyles.sectionTitle}>
        Invite a teacher
      </h3>
      <p className={consoleStyles.muted}>
        The teacher gets an e-mail whose link sets their password and ties their account to the profile. The link works once, for 7 days.
      </p>
      <form className={styles.form} method="post" noValidate onSubmit={onSubmit} aria-busy={isSubmitting}>
        {fixedTeacherId ? null : (
          <TextField label="Teacher profile id (as in /teachers/ID)" autoComplete="off" error={errors.teacherId?.message} {...register('teacherId')} />
        )}
        <TextField label="Teacher’s e-mail" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        <div>
          <Button type="submit" disabled={isSubmitting || !live}>
            Send invitation
          </Button>
        </div>
      </form>
      {shown ? <InviteList teacherId={shown} /> : null}
    </section>
  );
}
