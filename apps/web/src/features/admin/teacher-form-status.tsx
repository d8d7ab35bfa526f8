import { useState, type FormEvent } from 'react';
import { teacherStatusChangeSchema, type AdminTeacher } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { TextArea, useLive } from './teacher-form-fields';
import { fieldErrors, formError, useSetStaffTeacherStatusMutation } from './teachers-api';
import { StatusBadge } from './teachers-table';
import styles from './teachers-tab.module.css';

/**
 * A teacher's status: publish, hide (with a reason that is kept and shown here), or keep a
 * draft. A teacher who was public cannot be a draft again (decision 111), so that choice
 * goes once they were.
 */
export function TeacherFormStatus({ teacher }: { teacher: AdminTeacher }) {
  const [setStatus, { isLoading }] = useSetStaffTeacherStatusMutation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const live = useLive();
  const options = [
    ...(teacher.publishedAt === null ? [{ value: 'draft', label: 'Draft (not in the catalogue)' }] : []),
    { value: 'published', label: 'Published' },
    { value: 'hidden', label: 'Hidden (asks for a reason)' },
  ];
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved(false);
    const form = new FormData(event.currentTarget);
    const reason = String(form.get('reason') ?? '').trim();
    const change = { status: String(form.get('status')), ...(reason ? { reason } : {}) };
    const checked = teacherStatusChangeSchema.safeParse(change);
    if (!checked.success) {
      setErrors(Object.fromEntries(checked.error.issues.map((i) => [String(i.path[0] ?? 'form'), i.message])));
      return;
    }
    setErrors({});
    const result = await setStatus({ id: teacher.id, change: checked.data });
    if ('error' in result) {
      const fields = fieldErrors(result.error);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: formError(result.error) });
    } else setSaved(true);
  };
  return (
    <form className={styles.form} onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Status">
      <p>
        Now: <StatusBadge status={teacher.status} />
        {teacher.statusReason ? <span className={styles.muted}> — {teacher.statusReason}</span> : null}
      </p>
      <Select label="Change the status to" name="status" options={options} defaultValue={teacher.status === 'published' ? 'hidden' : 'published'} key={teacher.status} />
      <TextArea label="Reason (required to hide)" name="reason" rows={2} maxLength={500} error={errors.reason ?? errors.status} />
      {errors.form ? (
        <p className={styles.error} role="alert">
          {errors.form}
        </p>
      ) : null}
      {saved ? (
        <p className={styles.notice} role="status">
          Status changed. The catalogue follows within a second or two.
        </p>
      ) : null}
      <div className={styles.actions}>
        <Button type="submit" variant="dark" disabled={!live || isLoading}>
          Change status
        </Button>
      </div>
    </form>
  );
}
