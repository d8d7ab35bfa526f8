import { useState, type FormEvent } from 'react';
import { CANCEL_REASON_MAX, declineLessonInputSchema, teacherCancelInputSchema, type TeachLessonItem } from '@learnlingo/contract';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { errorFields, genericErrorMessage, type RequestError } from '../../../lib/api-error';
import styles from './lessons.module.css';

export type ReasonAction = 'cancel' | 'decline';

const TEXTS = {
  cancel: {
    title: 'Cancel this lesson?',
    label: 'Reason (sent to the learner)',
    submit: 'Cancel lesson',
    keep: 'Keep the lesson',
  },
  decline: {
    title: 'Decline this request?',
    label: 'Reason (optional, sent to the learner)',
    submit: 'Decline request',
    keep: 'Keep the request',
  },
} as const;

export interface ReasonDialogProps {
  action: ReasonAction;
  lesson: TeachLessonItem;
  /** "Mon 9 Mar 2026, 13:00–14:00 (Europe/Kyiv)" */
  when: string;
  onClose: () => void;
  /** sends the answer; resolves to the request's error, or null when it was done */
  onSubmit: (reason: string | undefined) => Promise<RequestError | null>;
}

/** Cancel (a reason required) or decline (a reason optional): the learner is told the reason. */
export function ReasonDialog({ action, lesson, when, onClose, onSubmit }: ReasonDialogProps) {
  const texts = TEXTS[action];
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const raw = String(new FormData(event.currentTarget).get('reason') ?? '');
    const checked =
      action === 'cancel' ? teacherCancelInputSchema.safeParse({ reason: raw }) : declineLessonInputSchema.safeParse(raw.trim() ? { reason: raw } : {});
    if (!checked.success) return setFieldError(checked.error.issues[0]?.message);
    setFieldError(undefined);
    setFormError(undefined);
    setBusy(true);
    const error = await onSubmit(checked.data.reason || undefined);
    setBusy(false);
    if (!error) return onClose();
    const fields = errorFields(error);
    if (fields.reason) setFieldError(fields.reason);
    else setFormError(genericErrorMessage(error));
  };

  return (
    <Modal open onClose={onClose} title={texts.title} description={`${lesson.learner.fullName}, ${when}`} maxWidth={480}>
      <form className={styles.dialogForm} onSubmit={(event) => void submit(event)} noValidate>
        <TextField label={texts.label} name="reason" maxLength={CANCEL_REASON_MAX} error={fieldError} required={action === 'cancel'} autoComplete="off" />
        {formError ? (
          <p role="alert" className={styles.error}>
            {formError}
          </p>
        ) : null}
        <div className={styles.actions}>
          <Button type="submit" variant="dark" disabled={busy} aria-busy={busy || undefined}>
            {texts.submit}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            {texts.keep}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
