import { useId } from 'react';
import { showToast } from '../../lib/toast';
import { Button } from './button';
import { TextField } from './text-field';
import styles from './calendar-feed-panel.module.css';

export interface CalendarFeedPanelProps {
  /** what the feed holds, in its owner's words */
  description: string;
  /** the feed's URL; null: none yet; undefined: not known yet */
  url: string | null | undefined;
  /** the URL could not be loaded */
  failed: boolean;
  /** a renewal (or the first load) is under way */
  busy: boolean;
  onRetry: () => void;
  /** asks for a new URL (the first, or one that replaces the old); false if that failed */
  onRenew: () => Promise<boolean>;
}

/**
 * A private calendar feed's panel (issue 25, decision 118): the URL to subscribe to in a
 * calendar app, Copy, and Renew (the old URL stops at once). The teacher's (/teach) and the
 * learner's (My lessons) give it their own URL and words.
 */
export function CalendarFeedPanel({ description, url, failed, busy, onRetry, onRenew }: CalendarFeedPanelProps) {
  const headingId = useId();
  const renew = async () => {
    if (url && !window.confirm('Renew the link? Calendars subscribed with the old link stop getting your lessons.')) return;
    if (await onRenew()) void showToast('success', url ? 'A new link is ready; the old one no longer works' : 'Your calendar link is ready');
  };
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      void showToast('success', 'Link copied');
    } catch {
      void showToast('error', 'Could not copy: select the link and copy it');
    }
  };

  return (
    <section className={styles.feed} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        Calendar feed
      </h2>
      <p className={styles.note}>
        {description} Subscribe to it in Google Calendar, Apple Calendar or Outlook (“from URL”) and it stays up to date, cancelled
        lessons included. Keep the link private: anyone who has it sees these lessons.
      </p>
      {failed ? (
        <div className={styles.row}>
          <p className={styles.note} role="alert">
            Could not load your calendar link.
          </p>
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : url ? (
        <>
          <div className={styles.row}>
            <TextField className={styles.url} label="Your private calendar link" readOnly value={url} onFocus={(event) => event.currentTarget.select()} />
            <Button onClick={() => void copy()}>Copy link</Button>
            <Button variant="secondary" onClick={() => void renew()} disabled={busy} aria-describedby={`${headingId}-renew`}>
              Renew link
            </Button>
          </div>
          <p id={`${headingId}-renew`} className={styles.note}>
            Renew it if someone else may have it: the old link stops working at once.
          </p>
        </>
      ) : (
        <div className={styles.row}>
          <Button onClick={() => void renew()} disabled={busy || url === undefined}>
            Get my calendar link
          </Button>
        </div>
      )}
    </section>
  );
}
