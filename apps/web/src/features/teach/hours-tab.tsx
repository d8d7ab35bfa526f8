import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { useGetTeachAvailabilityQuery } from './hours-api';
import { ExtraHoursSection, TimeOffSection } from './hours-entries';
import { HoursPreview } from './hours-preview';
import { WeeklyHoursForm } from './hours-weekly';
import styles from './hours-tab.module.css';

/** /teach/hours: weekly hours, time off, extra hours, notice, horizon and booking mode, and a preview of what learners see. */
export function HoursTab() {
  const { data, isError, refetch } = useGetTeachAvailabilityQuery();
  if (isError) {
    return (
      <EmptyState title="Could not load your hours" action={<Button onClick={() => void refetch()}>Try again</Button>}>
        Check your connection and try again.
      </EmptyState>
    );
  }
  if (!data) return <Spinner label="Loading your hours" />;
  return (
    <div className={styles.sections}>
      <section aria-labelledby="weekly-heading" className={styles.section}>
        <h2 id="weekly-heading" className={styles.title}>
          Weekly hours
        </h2>
        {/* (not keyed by what was saved: the form keeps its own state, and its "Saved" notice, across the refetch) */}
        <WeeklyHoursForm availability={data} />
      </section>
      <section aria-labelledby="time-off-heading" className={styles.section}>
        <h2 id="time-off-heading" className={styles.title}>
          Time off
        </h2>
        <p className={styles.hint}>Days in your time zone ({data.timeZone}), both included: one entry for a whole holiday. The school&apos;s closures apply too.</p>
        <TimeOffSection availability={data} />
      </section>
      <section aria-labelledby="extra-heading" className={styles.section}>
        <h2 id="extra-heading" className={styles.title}>
          Extra hours
        </h2>
        <p className={styles.hint}>Hours on one date beyond your weekly ones; they count even on a day off.</p>
        <ExtraHoursSection availability={data} />
      </section>
      <section aria-labelledby="preview-heading" className={styles.section}>
        <h2 id="preview-heading" className={styles.title}>
          What learners see
        </h2>
        <p className={styles.hint}>The coming week&apos;s free times, after your notice, time off, closures and booked lessons.</p>
        <HoursPreview teacherZone={data.timeZone} />
      </section>
    </div>
  );
}
