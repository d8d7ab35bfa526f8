import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { adminTeacherCreateSchema, adminTeacherInputSchema, type AdminTeacher, type Level } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { commaList, LevelChecks, linesOf, TextArea, useLive } from './teacher-form-fields';
import { TeacherFormPhoto, type UsePhotoUpload } from './teacher-form-photo';
import { fieldErrors, formError, useCreateStaffTeacherMutation, useUpdateStaffTeacherMutation } from './teachers-api';
import styles from './teachers-tab.module.css';

/** The card's fields of a form as the API takes them (the console's form and a teacher's own profile). */
export function cardValuesOf(form: FormData, photo: string | null) {
  const text = (name: string) => String(form.get(name) ?? '');
  const price = text('price_per_hour').trim();
  return {
    name: text('name'),
    surname: text('surname'),
    languages: commaList(text('languages')),
    // (checked with the contract's schema before it is sent)
    levels: form.getAll('levels').map(String) as Level[],
    price_per_hour: price === '' ? Number.NaN : Number(price),
    lesson_info: text('lesson_info'),
    conditions: linesOf(text('conditions')),
    experience: text('experience'),
    avatar_url: photo,
    country: text('country').trim() || null,
  };
}

/** The form's values as the API takes them (every field a card shows, and the hours). */
function valuesOf(form: FormData, photo: string | null) {
  const text = (name: string) => String(form.get(name) ?? '');
  return { ...cardValuesOf(form, photo), timeZone: text('timeZone').trim() || null, weeklyHours: text('weeklyHours').trim() || null };
}

/** Each field's first message (a list's item under the list's name). */
export function issuesOf(issues: readonly { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) out[String(issue.path[0] ?? 'form')] ??= issue.message;
  return out;
}

/** A server's field messages under each top field's name (`conditions.2` → `conditions`). */
export const flat = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.split('.')[0]!, v]));

/**
 * Every field a card shows, with the photo: the console's form and a teacher's own profile
 * (`mine`: the photo's texts speak to the teacher; `useUpload`: their own upload).
 */
export function TeacherCardFields({
  teacher,
  errors,
  photo,
  onPhoto,
  useUpload,
  mine = false,
}: {
  teacher?: Pick<AdminTeacher, 'name' | 'surname' | 'languages' | 'price_per_hour' | 'levels' | 'lesson_info' | 'conditions' | 'experience' | 'country'> & { id?: string };
  errors: Record<string, string>;
  photo: string | null;
  onPhoto: (url: string | null) => void;
  useUpload?: UsePhotoUpload;
  mine?: boolean;
}) {
  return (
    <>
      <div className={styles.row}>
        <TextField label="First name" name="name" defaultValue={teacher?.name} maxLength={100} required error={errors.name} autoComplete="off" />
        <TextField label="Last name" name="surname" defaultValue={teacher?.surname} maxLength={100} required error={errors.surname} autoComplete="off" />
      </div>
      <div className={styles.row}>
        <TextField label="Languages (comma-separated)" name="languages" defaultValue={teacher?.languages.join(', ')} maxLength={500} error={errors.languages} />
        <TextField label="Price per hour ($)" name="price_per_hour" type="number" min="1" step="any" inputMode="decimal" defaultValue={teacher?.price_per_hour} error={errors.price_per_hour} />
      </div>
      <LevelChecks value={teacher?.levels ?? []} error={errors.levels} />
      <TeacherFormPhoto teacherId={teacher?.id} value={photo} onChange={onPhoto} error={errors.avatar_url} useUpload={useUpload} mine={mine} />
      <TextArea label="Lesson info" name="lesson_info" defaultValue={teacher?.lesson_info} maxLength={5000} error={errors.lesson_info} />
      <TextArea label="Conditions" hint="One per line" name="conditions" defaultValue={teacher?.conditions.join('\n')} error={errors.conditions} />
      <TextArea label="Experience" name="experience" defaultValue={teacher?.experience} maxLength={10000} error={errors.experience} />
      <TextField label="Country (optional)" name="country" defaultValue={teacher?.country ?? ''} maxLength={60} error={errors.country} />
    </>
  );
}

/**
 * Add teacher (no `teacher`) or Edit: every field a card shows, the photo and the hours,
 * checked with the contract's schema before it is sent; the server's 400 puts its message
 * next to the field it names.
 */
export function TeacherForm({ teacher }: { teacher?: AdminTeacher }) {
  const navigate = useNavigate();
  const [create, created] = useCreateStaffTeacherMutation();
  const [update, updated] = useUpdateStaffTeacherMutation();
  const [photo, setPhoto] = useState<string | null>(teacher?.avatar_url ?? null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | undefined>();
  const live = useLive();
  const busy = !live || created.isLoading || updated.isLoading;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(undefined);
    const form = new FormData(event.currentTarget);
    const values = valuesOf(form, photo);
    const checked = teacher ? adminTeacherInputSchema.safeParse(values) : adminTeacherCreateSchema.safeParse({ ...values, status: String(form.get('status') ?? 'draft') });
    if (!checked.success) {
      setErrors(issuesOf(checked.error.issues));
      return;
    }
    setErrors({});
    const result = teacher ? await update({ id: teacher.id, patch: values }) : await create({ ...values, status: form.get('status') === 'published' ? 'published' : 'draft' });
    if ('error' in result) {
      const fields = flat(fieldErrors(result.error));
      setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
      return;
    }
    if (teacher) setMessage('Saved. The catalogue shows it within a second or two.');
    else void navigate(`/admin/teachers/${encodeURIComponent(result.data.id)}?added=1`);
  };

  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label={teacher ? 'Edit teacher' : 'Add teacher'}>
      <TeacherCardFields teacher={teacher} errors={errors} photo={photo} onPhoto={setPhoto} />
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Hours</legend>
        <p className={styles.hint}>Leave both empty for the school&apos;s hours. Weekly hours look like: Mon-Fri 09:00-17:00; Sat 10:00-13:00</p>
        <div className={styles.row}>
          <TextField label="Time zone" name="timeZone" placeholder="Europe/Kyiv" defaultValue={teacher?.timeZone ?? ''} maxLength={64} error={errors.timeZone} />
          <TextField label="Weekly hours" name="weeklyHours" placeholder="Mon-Fri 09:00-17:00" defaultValue={teacher?.weeklyHours ?? ''} maxLength={300} error={errors.weeklyHours} />
        </div>
      </fieldset>
      {teacher ? null : (
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>When saved</legend>
          <div className={styles.checks}>
            <label className={styles.check}>
              <input type="radio" name="status" value="draft" defaultChecked />
              Keep as a draft (not in the catalogue)
            </label>
            <label className={styles.check}>
              <input type="radio" name="status" value="published" />
              Publish at once
            </label>
          </div>
        </fieldset>
      )}
      {errors.form ? (
        <p className={styles.error} role="alert">
          {errors.form}
        </p>
      ) : null}
      {Object.keys(errors).length > 0 && !errors.form ? (
        <p className={styles.error} role="alert">
          Please correct the fields marked above.
        </p>
      ) : null}
      {message ? (
        <p className={styles.notice} role="status">
          {message}
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" disabled={busy}>
          {teacher ? 'Save changes' : 'Add teacher'}
        </Button>
      </div>
    </form>
  );
}
