import { useState } from 'react';
import { PHOTO_MAX_BYTES, type PhotoUploaded } from '@learnlingo/contract';
import { avatarPath } from '@learnlingo/contract/plain';
import { Button } from '../../components/ui/button';
import { useLive } from './teacher-form-fields';
import { fieldErrors, formError, useUploadStaffPhotoMutation } from './teachers-api';
import styles from './teachers-tab.module.css';

/** A mutation hook that sends a picture and answers its addresses (the console's, or a teacher's own). */
export type UsePhotoUpload = () => readonly [(file: File) => PromiseLike<{ data: PhotoUploaded } | { error: unknown }>, { isLoading: boolean }];

/**
 * The photo: a file picked is sent at once (the server checks its bytes, re-encodes it and
 * answers its address), and the preview shows what the server made of it. The address goes
 * with the form in a hidden field. An imported teacher's https picture is shown through our origin,
 * as on their card (decision 093), never fetched from its host by the admin's browser.
 */
export function TeacherFormPhoto({
  teacherId,
  value,
  onChange,
  error,
  useUpload = useUploadStaffPhotoMutation,
  mine = false,
}: {
  /** the teacher's id: an imported https picture is shown through our origin */
  teacherId?: string | undefined;
  value: string | null;
  onChange: (url: string | null) => void;
  error?: string;
  /** the upload (the console's by default) */
  useUpload?: UsePhotoUpload;
  /** a teacher's own photo: its texts speak to them, and the upload is on their card at once */
  mine?: boolean;
}) {
  const [upload, { isLoading }] = useUpload();
  const [uploaded, setUploaded] = useState(false);
  const [uploadError, setUploadError] = useState<string | undefined>();
  const shown = uploadError ?? error;
  const live = useLive();
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > PHOTO_MAX_BYTES) {
      setUploadError('The picture is larger than 5 MB');
      return;
    }
    setUploadError(undefined);
    setUploaded(false);
    const result = await upload(file);
    if ('error' in result) setUploadError(fieldErrors(result.error).photo ?? formError(result.error));
    else {
      onChange(result.data.avatar_url);
      setUploaded(true);
    }
  };
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>Photo</legend>
      <div className={styles.photo}>
        {value ? (
          <img
            className={styles.preview}
            src={(teacherId ? avatarPath(teacherId, value) : null) ?? value}
            alt={mine ? 'Your photo as learners see it' : "The teacher's photo as it will be shown"}
            width={96}
            height={96}
          />
        ) : (
          <span className={styles.preview} aria-hidden="true" />
        )}
        <div className={styles.textareaField}>
          <label htmlFor="teacher-photo" className={styles.label}>
            {value ? 'Replace the photo' : 'Upload a photo'}
          </label>
          <p className={styles.hint} id="teacher-photo-hint">
            JPEG, PNG or WebP, at most 5 MB; it is cropped to a square.{mine ? ' A new photo is on your card at once.' : ''}
          </p>
          <input
            id="teacher-photo"
            className={styles.fileInput}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            disabled={!live || isLoading}
            aria-describedby={`teacher-photo-hint${shown ? ' teacher-photo-error' : ''}`}
            aria-invalid={shown ? true : undefined}
            onChange={(event) => void onFile(event.currentTarget.files?.[0])}
          />
          {isLoading ? <p role="status" className={styles.hint}>Uploading…</p> : null}
          {mine && uploaded && !isLoading ? <p role="status" className={styles.notice}>Your new photo is on your card.</p> : null}
          {shown ? (
            <p id="teacher-photo-error" className={styles.error}>
              {shown}
            </p>
          ) : null}
          {value ? (
            <Button variant="secondary" className={styles.alignStart} onClick={() => {
                setUploaded(false);
                onChange(null);
              }}
            >
              Remove the photo
            </Button>
          ) : null}
        </div>
      </div>
      <input type="hidden" name="avatar_url" value={value ?? ''} />
    </fieldset>
  );
}
