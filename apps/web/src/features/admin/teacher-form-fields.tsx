import { useId, useSyncExternalStore } from 'react';
import { LEVELS } from '@learnlingo/contract';
import styles from './teachers-tab.module.css';

/** Moved to components/ui (the reviews' forms use it too); re-exported for the console's forms. */
export { TextArea } from '../../components/ui/text-area';

/** The levels a teacher teaches: one checkbox each, in a fieldset named by its legend. */
export function LevelChecks({ value, error }: { value: readonly string[]; error?: string }) {
  const errorId = useId();
  return (
    <fieldset className={styles.fieldset} aria-describedby={error ? errorId : undefined}>
      <legend className={styles.legend}>Levels</legend>
      <div className={styles.checks}>
        {LEVELS.map((level) => (
          <label key={level} className={styles.check}>
            <input type="checkbox" name="levels" value={level} defaultChecked={value.includes(level)} />
            {level}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** One line per item (conditions), blank lines dropped; a comma-separated list (languages). */
export const linesOf = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
export const commaList = (text: string) => text.split(',').map((l) => l.trim()).filter(Boolean);

const noSubscription = () => () => {};
/**
 * false in the server's HTML and until the app runs, then true: the console's forms send with
 * the app (their photo upload and validation are the app's), so their buttons are disabled
 * until it runs rather than posting a form no server route answers.
 */
export const useLive = () => useSyncExternalStore(noSubscription, () => true, () => false);
