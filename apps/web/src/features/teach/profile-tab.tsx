import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { teachProfileInputSchema, type TeachProfile } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { cardValuesOf, fieldErrors, flatFieldErrors, formError, issuesOf, TeacherCardFields, useLive } from '../admin';
import { useGetTeachProfileQuery, usePutTeachProfileMutation, useUploadTeachPhotoMutation } from './profile-api';
import { FormFeedback } from './hours-parts';
// (the teach tabs' shared form styles)
import styles from './hours-tab.module.css';

const STATUS_TEXT: Record<TeachProfile['status'], string> = {
  published: 'Your card is in the catalogue.',
  draft: 'Your card is a draft: learners do not see it until the school publishes it.',
  hidden: 'The school has hidden your card from the catalogue.',
};

/**
 * The teacher's own card: the console's fields and photo upload (not the status, which is the
 * school's; not the hours, which are the Hours tab's). Checked with the contract's schema
 * before it is sent; the server's 400 puts its message next to the field it names.
 */
function ProfileForm({ profile }: { profile: TeachProfile }) {
  const [save, { isLoading }] = usePutTeachProfileMutation();
  const [photo, setPhoto] = useState<string | null>(profile.avatar_url);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const live = useLive();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const values = cardValuesOf(new FormData(event.currentTarget), photo);
    const checked = teachProfileInputSchema.safeParse(values);
    if (!checked.success) return setErrors(issuesOf(checked.error.issues));
    setErrors({});
    const result = await save(values);
    if ('error' in result) {
      const fields = flatFieldErrors(fieldErrors(result.error));
      setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
    } else setSaved(true);
  };

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Your profile">
      <TeacherCardFields teacher={profile} errors={errors} photo={photo} onPhoto={setPhoto} useUpload={useUploadTeachPhotoMutation} mine />
      <FormFeedback errors={errors} saved={saved ? 'Saved. Your card shows it within a second or two.' : undefined} />
      <div className={styles.actions}>
        <Button type="submit" disabled={!live || isLoading} aria-busy={isLoading || undefined}>
          Save profile
        </Button>
      </div>
    </form>
  );
}

/** /teach/profile: the teacher's card as learners see it, to edit; changes are live at once, the school reviews them afterwards. */
export function ProfileTab() {
  const { data, isError, refetch } = useGetTeachProfileQuery();
  if (isError) {
    return (
      <EmptyState title="Could not load your profile" action={<Button onClick={() => void refetch()}>Try again</Button>}>
        Check your connection and try again.
      </EmptyState>
    );
  }
  if (!data) return <Spinner label="Loading your profile" />;
  return (
    <section aria-labelledby="profile-heading" className={`${styles.section} ${styles.profile}`}>
      <h2 id="profile-heading" className={styles.title}>
        Your profile
      </h2>
      <p className={styles.status}>
        {STATUS_TEXT[data.status]}
        {data.status === 'hidden' && data.statusReason ? ` Reason: ${data.statusReason}` : ''}{' '}
        {data.status === 'published' ? <Link to={`/teachers/${encodeURIComponent(data.id)}`}>See your card</Link> : null}
      </p>
      <p className={styles.hint}>Changes are live at once; the school sees them in its activity log.</p>
      <ProfileForm profile={data} key={data.id} />
    </section>
  );
}
